import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Passwords of the test servers: random, made once per cache folder and kept there (mode 600), so that
 * data folders created with them stay usable across restarts and `env` prints the same values.
 */
export interface Secrets {
  engineAPassword: string;
  engineBPassword: string;
  postgresPassword: string;
}

function newPassword(): string {
  // URL-safe so it can go into a postgres:// URL and a YAML keystore value without quoting.
  return randomBytes(18).toString('base64url');
}

export function loadSecrets(file: string): Secrets {
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>;
    if (stored.engineAPassword && stored.engineBPassword && stored.postgresPassword) return stored as Secrets;
  }
  const secrets: Secrets = {
    engineAPassword: newPassword(),
    engineBPassword: newPassword(),
    postgresPassword: newPassword(),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
