/**
 * Remove credentials from a message before it is stored in an error. Two layers:
 * - the exact secrets we sent (and any 8+ character piece of them, since providers often echo a
 *   masked key such as `sk-abc…wxyz`),
 * - shapes that look like keys even when we do not know them (bearer tokens, `sk-…`, AWS key ids,
 *   Google access tokens), because a message may quote a key the user mistyped elsewhere.
 */
const KEY_SHAPES: readonly RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bsk-[A-Za-z0-9_*.-]{6,}/g,
  /\b(AKIA|ASIA)[A-Z0-9]{12,}\b/g,
  /\bya29\.[A-Za-z0-9._-]+/g,
  /\bhf_[A-Za-z0-9]{8,}/g,
  // `api_key=…`, `"access_token": "…"`; a plain word after "api_key" (as in "set the api_key option") is prose.
  /\b(api[-_]?key|x-api-key|access[-_]?token)(["']?\s*[:=]\s*["']?)[^\s"',}]{6,}/gi,
];

const MASK = '[redacted]';

export function redactSecrets(message: string, secrets: readonly (string | undefined)[]): string {
  let result = message;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    result = result.split(secret).join(MASK);
    // Fragments: a provider may print the first or last characters of the key it received.
    if (secret.length >= 16) {
      for (const fragment of [secret.slice(0, 8), secret.slice(-8)])
        result = result.split(fragment).join(MASK);
    }
  }
  for (const shape of KEY_SHAPES) {
    result = result.replace(shape, (match, ...groups) => {
      // Keep the label of `api_key: xyz` so the message still says what was wrong.
      const label = groups[0];
      const separator = groups[1];
      if (typeof label === 'string' && typeof separator === 'string' && /key|token/i.test(label))
        return `${label}${separator}${MASK}`;
      if (typeof label === 'string' && /^(bearer|basic)$/i.test(label)) return `${label} ${MASK}`;
      return match.length > 0 ? MASK : match;
    });
  }
  return result;
}
