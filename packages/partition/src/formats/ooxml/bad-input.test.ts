import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { partition, ServiceError } from '../../index.js';
import { fakeEncryptedOffice, zipWithBomb } from './test-support.js';

/**
 * Every office format against the same bad inputs: each must fail with a typed error, quickly, and
 * never with an untyped exception.
 */

const MIME: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
};

/** Minimal but valid packages, so bombs and truncations hit the format's own reader. */
function minimalPackage(format: string): Record<string, Uint8Array> {
  const types = strToU8(
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
  );
  const rels = (target: string) =>
    strToU8(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${target}"/></Relationships>`,
    );
  switch (format) {
    case 'docx':
      return { '[Content_Types].xml': types, '_rels/.rels': rels('word/document.xml') };
    case 'pptx':
      return { '[Content_Types].xml': types, '_rels/.rels': rels('ppt/presentation.xml') };
    case 'xlsx':
      return { '[Content_Types].xml': types, '_rels/.rels': rels('xl/workbook.xml') };
    default:
      return { mimetype: strToU8('application/vnd.oasis.opendocument.text') };
  }
}

const MAIN_PART: Record<string, string> = {
  docx: 'word/document.xml',
  pptx: 'ppt/presentation.xml',
  xlsx: 'xl/workbook.xml',
  odt: 'content.xml',
};

async function codeOf(data: Uint8Array, format: string, declare = true): Promise<string> {
  try {
    await partition({ data, filename: `input.${format}` }, declare ? { content_type: MIME[format] } : {});
  } catch (error) {
    return error instanceof ServiceError ? error.code : `untyped ${String(error)}`;
  }
  return 'no error';
}

describe.each(['docx', 'pptx', 'xlsx', 'odt'])('%s bad input', (format) => {
  it('empty file → corrupt_document', async () => {
    expect(await codeOf(new Uint8Array(0), format)).toBe('corrupt_document');
  });

  it('binary garbage → corrupt_document', async () => {
    const garbage = new Uint8Array(3000).map((_, i) => (i * 131 + 7) % 256);
    expect(await codeOf(garbage, format)).toBe('corrupt_document');
  });

  it('truncated zip → corrupt_document', async () => {
    const whole = zipSync({
      ...minimalPackage(format),
      [MAIN_PART[format]!]: new Uint8Array(20_000).fill(65),
    });
    expect(await codeOf(whole.subarray(0, whole.length - 200), format)).toBe('corrupt_document');
  });

  it('zip bomb in the main part → limit_exceeded, by header or while inflating', async () => {
    const parts = minimalPackage(format);
    expect(await codeOf(zipWithBomb(parts, MAIN_PART[format]!, 4 * 1024 ** 3 - 1, 1024), format)).toBe(
      'limit_exceeded',
    );
    expect(await codeOf(zipWithBomb(parts, MAIN_PART[format]!, 2048, 32 * 1024 * 1024), format)).toBe(
      'limit_exceeded',
    );
  });

  it('password-protected file → encrypted_document', async () => {
    expect(await codeOf(fakeEncryptedOffice(), format)).toBe('encrypted_document');
  });
});

describe('wrong extensions', () => {
  it('reads a docx named .pptx by its content', async () => {
    const parts = minimalPackage('docx');
    parts['word/document.xml'] = strToU8(
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello from a misnamed file.</w:t></w:r></w:p></w:body></w:document>',
    );
    const elements = await partition({ data: zipSync(parts), filename: 'slides.pptx' });
    expect(elements.map((e) => e.text)).toEqual(['Hello from a misnamed file.']);
    expect(elements[0]!.metadata.filetype).toBe(MIME.docx);
  });

  it('a package that lacks its main part is corrupt', async () => {
    const parts = unzipSync(zipSync(minimalPackage('pptx')));
    expect(await codeOf(zipSync(parts), 'pptx')).toBe('corrupt_document');
  });
});
