import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: AES-256-GCM with the server master key (SERVICE_SECRET_KEY). Stored form:
 * `v1.<iv>.<tag>.<ciphertext>` (base64url parts), so the format can evolve.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** Any master key string is accepted; it is stretched to 32 bytes with SHA-256. */
  constructor(masterKey: string) {
    if (masterKey.length < 16) throw new Error('the master key must have at least 16 characters');
    this.key = createHash('sha256').update(masterKey, 'utf8').digest();
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(stored: string): string {
    const [version, iv, tag, body] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** Prefix that makes our keys recognisable in logs and secret scanners. */
export const KEY_PREFIX = 'dsk_';

/** A new API key: 32 random bytes, base64url. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * Look-up hash of a key. Keys carry 256 bits of randomness, so a plain SHA-256 cannot be reversed by
 * guessing; it lets a request find its key with one indexed query.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** What lists show of a key: its prefix and first characters. */
export function keyDisplayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}
