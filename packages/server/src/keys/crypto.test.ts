import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, SecretBox } from './crypto.js';

describe('SecretBox', () => {
  it('round-trips, uses a fresh IV each time, and detects tampering or the wrong key', () => {
    const box = new SecretBox('correct horse battery staple');
    const a = box.encrypt('secret');
    const b = box.encrypt('secret');
    expect(a).not.toBe(b);
    expect(box.decrypt(a)).toBe('secret');
    const [v, iv, tag, body] = a.split('.');
    const flipped = `${v}.${iv}.${tag}.${Buffer.from(Buffer.from(body!, 'base64url').map((x) => x ^ 1)).toString('base64url')}`;
    expect(() => box.decrypt(flipped)).toThrow();
    expect(() => new SecretBox('another master key!').decrypt(a)).toThrow();
  });

  it('refuses short master keys', () => {
    expect(() => new SecretBox('short')).toThrow(/16 characters/);
  });
});

describe('API keys', () => {
  it('are random, 32 bytes, and hashed deterministically', () => {
    const keys = new Set(Array.from({ length: 100 }, generateApiKey));
    expect(keys.size).toBe(100);
    const key = generateApiKey();
    expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });
});
