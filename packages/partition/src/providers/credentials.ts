import { ServiceError } from '../errors.js';

/**
 * Environment variables a provider may read keys and addresses from. The library takes them as a
 * value, not from `process.env` directly, so a server can decide that requests never fall back to
 * the operator's own keys (pass `{}`), while the CLI passes `process.env`.
 */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/** The first non-empty value: the option first, then each environment variable in order. */
export function resolveSetting(
  optionValue: string | undefined,
  env: ProviderEnv,
  envNames: readonly string[],
): string | undefined {
  if (optionValue !== undefined && optionValue.trim() !== '') return optionValue.trim();
  for (const name of envNames) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** Like resolveSetting, but a missing value is an `invalid_option` error naming where it may come from. */
export function requireSetting(
  what: { provider: string; option: string; description: string },
  optionValue: string | undefined,
  env: ProviderEnv,
  envNames: readonly string[],
): string {
  const value = resolveSetting(optionValue, env, envNames);
  if (value !== undefined) return value;
  const sources = [
    `the ${what.option} option`,
    ...envNames.map((name) => `the ${name} environment variable`),
  ];
  const message = `${what.provider} needs ${what.description}: set ${joinOr(sources)}.`;
  throw new ServiceError('invalid_option', message, { details: [{ field: what.option, message }] });
}

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
