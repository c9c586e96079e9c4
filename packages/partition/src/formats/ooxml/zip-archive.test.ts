import { deflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../errors.js';
import { handMadeZip } from './test-support.js';
import { ZipArchive } from './zip-archive.js';

const LIMIT = 1024 * 1024;

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return error instanceof ServiceError ? error.code : `untyped: ${String(error)}`;
  }
  return undefined;
}

describe('ZipArchive', () => {
  it('reads stored and deflated entries and lists names', () => {
    const data = zipSync({ 'a.txt': new TextEncoder().encode('hello'), 'dir/b.xml': new Uint8Array(5000) });
    const zip = ZipArchive.open(data, LIMIT);
    expect(zip.names().sort()).toEqual(['a.txt', 'dir/b.xml']);
    expect(zip.readText('a.txt')).toBe('hello');
    expect(zip.read('dir/b.xml')?.length).toBe(5000);
    expect(zip.read('missing')).toBeUndefined();
  });

  it('reports truncated and non-zip input as corrupt_document', () => {
    const data = zipSync({ 'a.txt': new Uint8Array(100) });
    expect(codeOf(() => ZipArchive.open(data.subarray(0, data.length - 10), LIMIT))).toBe('corrupt_document');
    expect(codeOf(() => ZipArchive.open(new Uint8Array(3), LIMIT))).toBe('corrupt_document');
    expect(codeOf(() => ZipArchive.open(new Uint8Array(500).fill(7), LIMIT))).toBe('corrupt_document');
  });

  it('refuses an entry whose declared size passes the limit before inflating it', () => {
    const data = handMadeZip('big.xml', deflateRawSync(Buffer.alloc(10)), { uncompressed: 0xfffffff0 });
    const zip = ZipArchive.open(data, LIMIT);
    expect(codeOf(() => zip.read('big.xml'))).toBe('limit_exceeded');
  });

  it('stops an entry that inflates beyond its declared size (a lying zip bomb)', () => {
    const bomb = deflateRawSync(Buffer.alloc(8 * LIMIT));
    const zip = ZipArchive.open(handMadeZip('bomb.xml', bomb, { uncompressed: 1000 }), 64 * LIMIT);
    expect(codeOf(() => zip.read('bomb.xml'))).toBe('limit_exceeded');
  });

  it('refuses impossible compression ratios', () => {
    const data = handMadeZip('x.xml', deflateRawSync(Buffer.alloc(100)), { uncompressed: 500 * LIMIT });
    expect(codeOf(() => ZipArchive.open(data, 1024 * LIMIT).read('x.xml'))).toBe('limit_exceeded');
  });

  it('counts every inflated byte against one budget', () => {
    const data = zipSync({ 'a.bin': new Uint8Array(600 * 1024), 'b.bin': new Uint8Array(600 * 1024) });
    const zip = ZipArchive.open(data, LIMIT);
    zip.read('a.bin');
    expect(codeOf(() => zip.read('b.bin'))).toBe('limit_exceeded');
  });

  it('reports encrypted entries and unknown compression methods', () => {
    const raw = new Uint8Array(10);
    expect(
      codeOf(() => ZipArchive.open(handMadeZip('e', raw, { uncompressed: 10, flags: 1 }), LIMIT).read('e')),
    ).toBe('encrypted_document');
    expect(
      codeOf(() => ZipArchive.open(handMadeZip('m', raw, { uncompressed: 10, method: 14 }), LIMIT).read('m')),
    ).toBe('corrupt_document');
  });
});
