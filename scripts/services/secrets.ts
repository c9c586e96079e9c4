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
  vectorDbPassword: string;
  postgresPassword: string;
}

function newPassword(): string {
  // URL-safe so it can go into a postgres:// URL and a YAML keystore value without quoting.
  return randomBytes(18).toString('base64url');
}

export function loadSecrets(file: string): Secrets {
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>) : {};
  // A password added in a later version is made on its own; the existing ones are kept, since data
  // folders (engine_a's keystore, PostgreSQL's cluster) were created with them.
  const secrets: Secrets = {
    engineAPassword: stored.engineAPassword ?? newPassword(),
    engineBPassword: stored.engineBPassword ?? newPassword(),
    vectorDbPassword: stored.vectorDbPassword ?? newPassword(),
    postgresPassword: stored.postgresPassword ?? newPassword(),
  };
  if (Object.keys(secrets).some((key) => stored[key as keyof Secrets] === undefined)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return secrets;
}
