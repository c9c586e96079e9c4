import { strToU8, unzipSync, zipSync } from 'fflate';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Element } from '../elements/element.js';
import type { ErrorCode } from '../errors.js';
import { ServiceError } from '../errors.js';
import { zipWithBomb } from '../formats/ooxml/test-support.js';
import { closeOcrEngines } from '../ocr/engines.js';
import type { PartitionOptionsInput } from '../options/partition-options.js';
import type { PartitionLimits } from '../pipeline/limits.js';
import { partition } from '../pipeline/partition.js';
import { closePagePool } from '../workers/page-pool.js';
import { binaryGarbage, validDocuments } from './test-support/fixtures.js';

/**
 * Bad input across every format, in one table: each row must end in the typed error it names, or in a
 * best-effort list of elements — never an untyped exception, an `internal` error or a hang (the test
 * time limit catches hangs). Fixtures are generated (./fixtures.ts), then emptied, cut, misnamed,
 * garbled, mis-encoded, bombed or nested beyond reason here.
 */

interface Row {
  name: string;
  data: () => Uint8Array;
  filename?: string;
  options?: PartitionOptionsInput;
  limits?: Partial<PartitionLimits>;
  /** An error code, or a check of the elements of a best-effort result. */
  expected: ErrorCode | ((elements: Element[]) => void);
}

let documents: Record<string, Uint8Array> = {};
beforeAll(async () => {
  documents = await validDocuments();
});
afterAll(async () => {
  await closePagePool();
  await closeOcrEngines();
});

const doc = (extension: string) => () => documents[extension]!;
const utf8 = (text: string) => new TextEncoder().encode(text);
const half = (extension: string) => () =>
  documents[extension]!.subarray(0, documents[extension]!.length >> 1);

const TEXT_FORMATS = ['txt', 'md', 'rst', 'org', 'html', 'xml', 'csv', 'tsv', 'json', 'ndjson', 'eml'];
const ZIP_FORMATS = ['docx', 'pptx', 'xlsx', 'odt', 'epub'];
const IMAGE_FORMATS = ['png', 'jpg', 'tiff', 'webp', 'gif'];
/** Binary formats whose readers fail on damage; legacy .doc/.ppt/.bmp/.heic have no generated fixture. */
const BINARY_FORMATS = [...ZIP_FORMATS, 'xls', 'msg', 'pdf', ...IMAGE_FORMATS];

/** Some best-effort result: a list of well-formed elements (possibly empty). */
const anyElements = (elements: Element[]) => {
  for (const element of elements) {
    expect(typeof element.type).toBe('string');
    expect(typeof element.text).toBe('string');
  }
};
const none = (elements: Element[]) => expect(elements).toEqual([]);
const containing = (text: string) => (elements: Element[]) =>
  expect(elements.map((element) => element.text).join('\n')).toContain(text);
const firstType = (type: string) => (elements: Element[]) => expect(elements[0]?.type).toBe(type);

const CZECH = 'Příliš žluťoučký kůň úpěl ďábelské ódy. Děkujeme za zprávu.';
const CHINESE = '人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待。';
/** Czech in windows-1250 after 300 KB of ASCII: detection on the head alone says "ASCII". */
const lateCzech = (before: string, after = '') =>
  new Uint8Array(
    iconv.encode(`${before}${'Plain ASCII prose line.\n'.repeat(13_000)}\n${CZECH}\n${after}`, 'cp1250'),
  );
/** The same body in each text format, so one encoding row per format reads the same words. */
const BODY_IN: Record<string, (text: string) => string> = {
  txt: (text) => `${text}\n`,
  md: (text) => `# Zpráva\n\n${text}\n`,
  rst: (text) => `Zpráva\n======\n\n${text}\n`,
  org: (text) => `* Zpráva\n${text}\n`,
  html: (text) => `<html><body><h1>Zpráva</h1><p>${text}</p></body></html>`,
  xml: (text) => `<zprava><text>${text}</text></zprava>`,
  csv: (text) => `jméno,text\nAnna,"${text}"\n`,
  json: (text) => JSON.stringify({ text }),
  eml: (text) => `From: a@example.cz\r\nTo: b@example.cz\r\nSubject: Zprava\r\n\r\n${text}\r\n`,
};

/** UTF-8 whose "é" (C3 A9) is replaced by a byte that never occurs in UTF-8. */
function withStrayByte(bytes: Uint8Array): Uint8Array {
  const at = bytes.findIndex((byte, index) => byte === 0xc3 && bytes[index + 1] === 0xa9);
  return new Uint8Array([...bytes.subarray(0, at), 0xff, ...bytes.subarray(at + 2)]);
}

function emptyRows(): Row[] {
  return [
    ...TEXT_FORMATS.map(
      (ext): Row => ({
        name: `empty .${ext}`,
        data: () => new Uint8Array(),
        filename: `a.${ext}`,
        expected: none,
      }),
    ),
    { name: 'empty .rtf', data: () => new Uint8Array(), filename: 'a.rtf', expected: 'corrupt_document' },
    ...[...BINARY_FORMATS, 'doc', 'ppt', 'bmp', 'heic'].map(
      (ext): Row => ({
        name: `empty .${ext}`,
        data: () => new Uint8Array(),
        filename: `a.${ext}`,
        expected: 'corrupt_document',
      }),
    ),
    { name: 'empty, no name', data: () => new Uint8Array(), expected: none },
  ];
}

function truncatedRows(): Row[] {
  return [
    ...[...TEXT_FORMATS.filter((ext) => ext !== 'json'), 'rtf'].map(
      (ext): Row => ({
        name: `truncated .${ext}`,
        data: half(ext),
        filename: `a.${ext}`,
        expected: anyElements,
      }),
    ),
    { name: 'truncated .json', data: half('json'), filename: 'a.json', expected: 'corrupt_document' },
    ...BINARY_FORMATS.map(
      (ext): Row => ({
        name: `truncated .${ext}`,
        data: half(ext),
        filename: `a.${ext}`,
        expected: 'corrupt_document',
      }),
    ),
    // Without a name, a truncated package is still named by the entries its local headers show.
    ...ZIP_FORMATS.map(
      (ext): Row => ({ name: `truncated ${ext}, no name`, data: half(ext), expected: 'corrupt_document' }),
    ),
    { name: 'truncated pdf, no name', data: half('pdf'), expected: 'corrupt_document' },
  ];
}

function garbageRows(): Row[] {
  return [
    // Bytes that are neither text nor any known format: refused, naming what was found.
    ...['txt', 'html', 'csv', 'json', 'eml', 'md', 'xml'].map(
      (ext): Row => ({
        name: `garbage named .${ext}`,
        data: () => binaryGarbage(),
        filename: `a.${ext}`,
        expected: 'unsupported_file_type',
      }),
    ),
    { name: 'garbage, no name', data: () => binaryGarbage(), expected: 'unsupported_file_type' },
    // Named as a binary format: that format's reader says the document is broken.
    ...['docx', 'pdf', 'xlsx', 'pptx', 'odt', 'epub', 'msg', 'png'].map(
      (ext): Row => ({
        name: `garbage named .${ext}`,
        data: () => binaryGarbage(),
        filename: `a.${ext}`,
        expected: 'corrupt_document',
      }),
    ),
    // Declared as text by content type: binary behind a text type is a broken document.
    ...['text/plain', 'text/html', 'text/csv', 'application/json', 'message/rfc822', 'text/markdown'].map(
      (type): Row => ({
        name: `garbage declared ${type}`,
        data: () => binaryGarbage(),
        filename: 'upload',
        options: { content_type: type },
        expected: 'corrupt_document',
      }),
    ),
  ];
}

function wrongExtensionRows(): Row[] {
  const read = (ext: string, as: string, expected: Row['expected']): Row => ({
    name: `${ext} named .${as}`,
    data: doc(ext),
    filename: `misnamed.${as}`,
    expected,
  });
  return [
    read('docx', 'pdf', containing('committee approved the budget')),
    read('docx', 'txt', containing('committee approved the budget')),
    read('docx', 'xlsx', containing('committee approved the budget')),
    read('xlsx', 'docx', firstType('Table')),
    read('pptx', 'docx', containing('committee approved the budget')),
    read('epub', 'zip', containing('committee approved the budget')),
    read('odt', 'docx', containing('committee approved the budget')),
    read('pdf', 'docx', containing('committee approved the budget')),
    read('pdf', 'html', containing('committee approved the budget')),
    read('msg', 'doc', containing('committee approved the budget')),
    read('xls', 'xlsx', firstType('Table')),
    read('html', 'txt', firstType('Title')),
    read('html', 'pdf', firstType('Title')),
    read('eml', 'txt', containing('committee approved the budget')),
    read('rtf', 'txt', containing('committee approved the budget')),
    read('json', 'txt', containing('committee approved the budget')),
    // A text extension other than .txt is believed: CSV rules over JSON text still give a result...
    read('json', 'csv', anyElements),
    // ...and JSON rules over CSV text find no JSON.
    read('csv', 'json', 'corrupt_document'),
    read('png', 'pdf', none),
  ];
}

function encodingRows(): Row[] {
  const formats = Object.keys(BODY_IN);
  const encoded = (ext: string, text: string, encoding: string) => () =>
    new Uint8Array(iconv.encode(BODY_IN[ext]!(text), encoding));
  return [
    // No encoding given: legacy code pages are found, even after a long ASCII head.
    ...formats.map(
      (ext): Row => ({
        name: `.${ext} in windows-1250`,
        data: encoded(ext, CZECH, 'cp1250'),
        filename: `a.${ext}`,
        expected: containing(CZECH),
      }),
    ),
    {
      name: '.txt in windows-1250 after 300 KB of ASCII',
      data: () => lateCzech(''),
      filename: 'a.txt',
      expected: containing(CZECH),
    },
    {
      name: '.html in windows-1250 after 300 KB of ASCII',
      data: () => lateCzech('<html><body><pre>', '</pre></body></html>'),
      filename: 'a.html',
      expected: containing('ďábelské'),
    },
    // A given encoding is used for detection and decoding: BOM-less UTF-16 in any script.
    ...formats.map(
      (ext): Row => ({
        name: `.${ext} in UTF-16LE without BOM, encoding given`,
        data: encoded(ext, CHINESE, 'utf-16le'),
        filename: `a.${ext}`,
        options: { encoding: 'utf-16le' },
        expected: containing(CHINESE),
      }),
    ),
    // Invalid UTF-8 (a stray byte) without an encoding: read best-effort.
    ...formats.map(
      (ext): Row => ({
        name: `.${ext} with a stray invalid byte`,
        data: () => withStrayByte(utf8(BODY_IN[ext]!('Café au lait is served every morning.'))),
        filename: `a.${ext}`,
        expected: containing('au lait is served every morning.'),
      }),
    ),
    // Only an explicit, wrong encoding fails: an unknown name, or UTF-8 over bytes that are not.
    ...['txt', 'md', 'rst', 'org', 'html', 'xml', 'csv', 'json'].flatMap((ext): Row[] => [
      {
        name: `.${ext} with an unknown encoding`,
        data: encoded(ext, CZECH, 'utf-8'),
        filename: `a.${ext}`,
        options: { encoding: 'klingon-8' },
        expected: 'invalid_encoding',
      },
      {
        name: `.${ext} in windows-1250 declared utf-8`,
        data: encoded(ext, CZECH, 'cp1250'),
        filename: `a.${ext}`,
        options: { encoding: 'utf-8' },
        expected: 'invalid_encoding',
      },
    ]),
  ];
}

/** The valid package with `part` replaced by a bomb: declared small but inflating to more. */
function bombed(ext: string, part: string, declared: number, actual: number): () => Uint8Array {
  return () => {
    const parts = unzipSync(documents[ext]!);
    const mimetype = parts.mimetype;
    delete parts[part];
    delete parts.mimetype;
    // The mimetype entry stays first, as ODF and EPUB readers (and detection) expect.
    const ordered = mimetype ? { mimetype, ...parts } : parts;
    return zipWithBomb(ordered, part, declared, actual);
  };
}

function bombRows(): Row[] {
  const MiB = 1024 * 1024;
  const mainPart: Record<string, string> = {
    docx: 'word/document.xml',
    epub: 'OEBPS/one.xhtml',
    xlsx: 'xl/worksheets/sheet1.xml',
    pptx: 'ppt/slides/slide1.xml',
    odt: 'content.xml',
  };
  return Object.entries(mainPart).flatMap(([ext, part]): Row[] => [
    {
      name: `${ext}: bomb lying about its size`,
      data: bombed(ext, part, 2048, 16 * MiB),
      filename: `a.${ext}`,
      expected: 'limit_exceeded',
    },
    {
      name: `${ext}: bomb declaring 4 GiB`,
      data: bombed(ext, part, 4 * 1024 * MiB - 1, 1024),
      filename: `a.${ext}`,
      expected: 'limit_exceeded',
    },
    {
      name: `${ext}: honest entry over the limit`,
      data: bombed(ext, part, 8 * MiB, 8 * MiB),
      filename: `a.${ext}`,
      limits: { maxDecompressedBytes: 4 * MiB },
      expected: 'limit_exceeded',
    },
  ]);
}

function nestingRows(): Row[] {
  const depth = 100_000;
  return [
    {
      name: `HTML nested ${depth} divs`,
      data: () => utf8(`${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}`),
      filename: 'a.html',
      expected: anyElements,
    },
    {
      name: `HTML ${depth} unclosed inline tags`,
      data: () => utf8(`<p>${'<b><i>'.repeat(depth)}deep text</p>`),
      filename: 'a.html',
      expected: anyElements,
    },
    {
      name: `XML nested ${depth} elements`,
      data: () => utf8(`<?xml version="1.0"?>${'<a>'.repeat(depth)}deep text${'</a>'.repeat(depth)}`),
      filename: 'a.xml',
      expected: anyElements,
    },
    {
      name: `JSON nested ${depth} arrays`,
      data: () => utf8(`${'['.repeat(depth)}"deep text"${']'.repeat(depth)}`),
      filename: 'a.json',
      expected: containing('deep text'),
    },
    {
      name: `JSON nested ${depth} objects`,
      data: () => utf8(`${'{"a":'.repeat(depth)}"deep text"${'}'.repeat(depth)}`),
      filename: 'a.json',
      expected: containing('deep text'),
    },
    {
      name: 'Markdown with 10000 nested quotes',
      data: () => utf8(`${'>'.repeat(10_000)} deep text\n`),
      filename: 'a.md',
      expected: anyElements,
    },
    {
      name: 'Markdown with 5000 nested list levels',
      data: () => utf8(Array.from({ length: 5000 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n')),
      filename: 'a.md',
      expected: anyElements,
    },
    {
      name: 'RTF with 100000 nested groups',
      data: () => utf8(`{\\rtf1\\ansi ${'{'.repeat(depth)}deep text${'}'.repeat(depth)}}`),
      filename: 'a.rtf',
      expected: anyElements,
    },
    {
      name: 'docx with 5000 nested tables',
      data: () => {
        const parts = unzipSync(documents.docx!);
        const table = (inner: string) => `<w:tbl><w:tr><w:tc>${inner}<w:p/></w:tc></w:tr></w:tbl>`;
        let body = '<w:p><w:r><w:t>deep text</w:t></w:r></w:p>';
        for (let i = 0; i < 5000; i++) body = table(body);
        parts['word/document.xml'] = strToU8(
          `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
        );
        return zipSync(parts);
      },
      filename: 'a.docx',
      expected: anyElements,
    },
  ];
}

async function outcome(row: Row): Promise<Element[] | ServiceError> {
  try {
    return await partition({ data: row.data(), filename: row.filename }, row.options ?? {}, {
      limits: row.limits,
    });
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw new Error(`untyped failure: ${String(error)}`, { cause: error });
  }
}

const GROUPS: [string, () => Row[]][] = [
  ['empty files', emptyRows],
  ['truncated files', truncatedRows],
  ['binary garbage', garbageRows],
  ['wrong extensions', wrongExtensionRows],
  ['encodings', encodingRows],
  ['zip bombs', bombRows],
  ['deep nesting', nestingRows],
];

describe.each(GROUPS)('bad input: %s', (_group, rows) => {
  it.each(rows().map((row) => [row.name, row] as const))('%s', { timeout: 60_000 }, async (_name, row) => {
    const result = await outcome(row);
    if (typeof row.expected === 'string') {
      expect(result instanceof ServiceError ? result.code : 'elements').toBe(row.expected);
      return;
    }
    if (result instanceof ServiceError) expect.fail(`${result.code}: ${result.message}`);
    row.expected(result);
  });
});
