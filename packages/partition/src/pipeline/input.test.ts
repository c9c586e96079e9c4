import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { partition } from './partition.js';

const CSV = 'Team,City,Cups\nCanadiens,Montreal,24\nMaple Leafs,Toronto,13\n';
const gz = (text: string) => new Uint8Array(gzipSync(Buffer.from(text)));
const withoutIds = (elements: Awaited<ReturnType<typeof partition>>) =>
  elements.map(({ element_id: _id, ...rest }) => rest);

describe('gzip input', () => {
  it('partitions gzip content like the uncompressed file, with .gz dropped from the name', async () => {
    const plain = await partition({ data: new TextEncoder().encode(CSV), filename: 'cups.csv' });
    const zipped = await partition({ data: gz(CSV), filename: 'cups.csv.gz' });
    expect(withoutIds(zipped)).toEqual(withoutIds(plain));
    expect(zipped[0]!.metadata.filename).toBe('cups.csv');
  });

  it('detects the content type of nameless gzip content', async () => {
    const [element] = await partition(gz(CSV));
    expect(element!.type).toBe('Table');
  });

  it('uses gz_uncompressed_content_type for the content', async () => {
    const elements = await partition(
      { data: gz(CSV), filename: 'upload.gz' },
      { gz_uncompressed_content_type: 'text/plain' },
    );
    expect(elements[0]!.metadata.filetype).toBe('text/plain');
    expect(elements.some((element) => element.type === 'Table')).toBe(false);
  });

  it('refuses content that inflates past the limit with limit_exceeded', async () => {
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(5 * 1024 * 1024, 0x41)));
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(
      partition(
        { data: bomb, filename: 'bomb.txt.gz' },
        {},
        { limits: { maxDecompressedBytes: 1024 * 1024 } },
      ),
    ).rejects.toMatchObject({ code: 'limit_exceeded' });
  });

  it('refuses a truncated gzip stream with corrupt_document', async () => {
    const data = gz(CSV.repeat(50));
    await expect(
      partition({ data: data.subarray(0, data.length - 20), filename: 'cut.csv.gz' }),
    ).rejects.toMatchObject({
      code: 'corrupt_document',
    });
  });
});
