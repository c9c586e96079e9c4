import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { detectFileType } from './detect.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const idOf = async (data: Uint8Array, filename?: string, content_type?: string, encoding?: string) =>
  (await detectFileType({ data, filename, content_type, encoding })).id;

const EMAIL = 'From: Ann <ann@example.com>\r\nTo: bob@example.com\r\nSubject: Hi\r\n\r\nHello Bob.\r\n';

describe('detectFileType: content first', () => {
  it.each([
    ['%PDF-1.7\n1 0 obj\n<<>>\nendobj\n', 'pdf'],
    ['<!DOCTYPE html><html><body><p>x</p></body></html>', 'html'],
    ['<?xml version="1.0"?><catalog><book id="1"/></catalog>', 'xml'],
    ['{"a": [1, 2, 3]}', 'json'],
    ['{"a": 1}\n{"a": 2}\n{"a": 3}\n', 'ndjson'],
    [EMAIL, 'eml'],
    ['{\\rtf1\\ansi Hello}', 'rtf'],
    ['# Title\n\nSome *text* with a [link](https://example.com).\n\n## Part\n\nMore.\n', 'md'],
    ['Title\n=====\n\nText.\n\nSection\n-------\n\nMore text.\n', 'rst'],
    ['#+TITLE: Notes\n* Heading\nText under it.\n', 'org'],
    ['name,age\nann,3\nbob,4\ncid,5\n', 'csv'],
    ['name\tage\nann\t3\nbob\t4\n', 'tsv'],
    ['Just a few words of prose.\nAnother line, with a comma.\n', 'txt'],
    ['# make a logger\nlogger = get_logger()\n# and use it\nlogger.info("x")\n', 'txt'],
  ])('sniffs %j as %s without a name', async (text, expected) => {
    expect(await idOf(utf8(text))).toBe(expected);
  });

  it('tells zip-based office formats apart by their entries', async () => {
    const docx = zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'word/document.xml': strToU8('<w/>'),
    });
    const xlsx = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'xl/workbook.xml': strToU8('<w/>') });
    const epub = zipSync({ mimetype: strToU8('application/epub+zip'), 'OEBPS/a.xhtml': strToU8('<x/>') });
    expect(await idOf(docx)).toBe('docx');
    expect(await idOf(xlsx, 'report.pdf')).toBe('xlsx');
    expect(await idOf(epub)).toBe('epub');
  });

  it('believes content over a wrong binary extension', async () => {
    expect(await idOf(utf8('%PDF-1.4\n%%EOF\n'), 'scan.docx')).toBe('pdf');
    expect(await idOf(utf8('plain words only\n'), 'report.pdf')).toBe('txt');
    expect(await idOf(utf8(EMAIL), 'notes.txt')).toBe('eml');
  });

  it('believes a text extension for text whose content could be several things', async () => {
    expect(await idOf(utf8('<h1>Readme</h1>\n\nText.\n'), 'README.md')).toBe('md');
    expect(await idOf(utf8('a,b\n1,2\n3,4\n'), 'data.txt')).toBe('txt');
    expect(await idOf(utf8('From: x\nTo: y\n\nhi'), 'mail.md')).toBe('md');
  });

  it('reads UTF-16 text with and without a byte-order mark', async () => {
    const body = 'MIME-Version: 1.0\nSubject: Test\nFrom: a@example.com\n\nHello\n';
    const le = Buffer.from(body, 'utf16le');
    const withBom = Buffer.concat([Buffer.from([0xff, 0xfe]), le]);
    const be = Buffer.from(le).swap16();
    expect(await idOf(new Uint8Array(withBom))).toBe('eml');
    expect(await idOf(new Uint8Array(le))).toBe('eml');
    expect(await idOf(new Uint8Array(be))).toBe('eml');
    const html = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<html><body>x</body></html>', 'utf16le'),
    ]);
    expect(await idOf(new Uint8Array(html), 'page.html')).toBe('html');
  });
});

describe('detectFileType: the encoding option', () => {
  const chinese =
    '人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待。'.repeat(30);

  it('reads text in the given encoding, so BOM-less UTF-16 in any script is text', async () => {
    const plain = new Uint8Array(Buffer.from(chinese, 'utf16le'));
    expect(await idOf(plain, 'notes.txt', undefined, 'utf-16le')).toBe('txt');
    const html = new Uint8Array(Buffer.from(`<html><body><p>${chinese}</p></body></html>`, 'utf16le'));
    expect(await idOf(html, undefined, undefined, 'utf-16le')).toBe('html');
    const mail = new Uint8Array(
      iconv.encode(
        `From: a@example.cz\nTo: b@example.cz\nSubject: Ahoj\n\nPříliš žluťoučký kůň.\n`,
        'cp1250',
      ),
    );
    expect(await idOf(mail, 'mail.txt', undefined, 'windows-1250')).toBe('eml');
  });

  it('falls back to detection when the given encoding cannot read the bytes', async () => {
    // The partitioner then reports the wrong encoding; detection itself never fails on it.
    const latin = new Uint8Array(iconv.encode('name,city\nZoë,Malmö\nÅsa,Köln\n', 'windows-1252'));
    expect(await idOf(latin, undefined, undefined, 'utf-8')).toBe('csv');
    expect(await idOf(utf8('%PDF-1.4\n%%EOF\n'), 'a.pdf', undefined, 'utf-16le')).toBe('pdf');
  });

  it('sniffs text whose sample ends inside a character, and legacy text with an ASCII head', async () => {
    const json = utf8(`[${JSON.stringify('é'.repeat(40_000))}]`);
    expect(await idOf(json)).toBe('json');
    const czech = iconv.encode(
      `${'Plain ASCII prose line.\n'.repeat(12_000)}Děkujeme, řekl.\n`,
      'windows-1250',
    );
    expect(await idOf(new Uint8Array(czech), 'letter.txt')).toBe('txt');
  });
});

describe('detectFileType: content_type', () => {
  it('overrides content and extension', async () => {
    expect(await idOf(utf8('<html><body>x</body></html>'), 'a.html', 'text/plain')).toBe('txt');
    expect(await idOf(utf8('a,b\n'), undefined, 'text/csv; charset=utf-8')).toBe('csv');
  });

  it('ignores generic types such as application/octet-stream', async () => {
    expect(await idOf(utf8(EMAIL), 'x.eml', 'application/octet-stream')).toBe('eml');
  });

  it('refuses an unknown declared type by name', async () => {
    await expect(idOf(utf8('x'), 'x.txt', 'application/x-made-up')).rejects.toMatchObject({
      code: 'unsupported_file_type',
      message: expect.stringContaining('application/x-made-up'),
    });
  });
});

describe('detectFileType: damaged zip packages', () => {
  const docx = zipSync({
    '[Content_Types].xml': strToU8('<Types/>'),
    '_rels/.rels': strToU8('<Relationships/>'),
    'word/document.xml': strToU8(
      `<w:document>${'<w:p><w:r><w:t>Words in a paragraph.</w:t></w:r></w:p>'.repeat(400)}</w:document>`,
    ),
    'word/styles.xml': strToU8(`<w:styles>${'<w:style/>'.repeat(2000)}</w:styles>`),
  });
  const truncated = docx.subarray(0, Math.floor(docx.length / 2));

  it('names a truncated package by the entries its local headers still show', async () => {
    expect(await idOf(truncated)).toBe('docx');
    expect(await idOf(truncated, 'report.docx')).toBe('docx');
  });

  it('hands a readable package without its main part to the reader its extension names', async () => {
    const partsOnly = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), '_rels/.rels': strToU8('<R/>') });
    expect(await idOf(partsOnly, 'report.docx')).toBe('docx');
    await expect(idOf(partsOnly, 'report.zip')).rejects.toMatchObject({ code: 'unsupported_file_type' });
    // A plain archive renamed .docx is still an archive.
    const plain = zipSync({ 'notes.txt': strToU8('hello') });
    await expect(idOf(plain, 'report.docx')).rejects.toMatchObject({ code: 'unsupported_file_type' });
  });

  it('falls back to a zip-based extension when nothing of the package can be read', async () => {
    const headless = docx.subarray(0, 20); // a local header cut before its entry name
    expect(await idOf(headless, 'slides.pptx')).toBe('pptx');
    expect(await idOf(headless, 'book.epub')).toBe('epub');
    await expect(idOf(headless, 'archive.zip')).rejects.toMatchObject({ code: 'unsupported_file_type' });
    await expect(idOf(headless)).rejects.toMatchObject({ code: 'unsupported_file_type' });
  });
});

describe('detectFileType: bad input', () => {
  it('treats an empty file as empty text unless its name says a binary format', async () => {
    expect(await idOf(new Uint8Array())).toBe('txt');
    expect(await idOf(new Uint8Array(), 'empty.csv')).toBe('csv');
    await expect(idOf(new Uint8Array(), 'empty.docx')).rejects.toMatchObject({
      code: 'corrupt_document',
      message: expect.stringContaining('wordprocessingml'),
    });
  });

  it('names the detected type of binary garbage and of known unsupported types', async () => {
    const garbage = new Uint8Array(2048).map((_, index) => (index * 7919 + 13) % 256);
    await expect(idOf(garbage)).rejects.toMatchObject({
      code: 'unsupported_file_type',
      message: expect.stringContaining('application/octet-stream'),
    });
    const xsl = utf8('<?xml version="1.0"?>\n<xsl:stylesheet version="1.0"><html/></xsl:stylesheet>');
    await expect(idOf(xsl)).rejects.toMatchObject({ message: expect.stringContaining('xslt') });
    const zip = zipSync({ 'a.txt': strToU8('hello') });
    await expect(idOf(zip, 'archive.zip')).rejects.toMatchObject({
      code: 'unsupported_file_type',
      message: expect.stringContaining('application/zip'),
    });
  });
});

/**
 * Every sample document, given with its name as users upload it, is detected as its extension says.
 * Exceptions, each on purpose:
 */
const SAMPLES = join(import.meta.dirname, '../../../../../shared/samples/unstructured-example-docs');
const EXPECTED_EXCEPTIONS: Record<string, string> = {
  // A .txt (and a .p7s) holding an RFC 822 message: e-mail by content, as the reference system does.
  'fake-email.txt': 'eml',
  'eml/fake-email.txt': 'eml',
  'eml/signed-doc.p7s': 'eml',
  // Source code has no partitioner of its own; it is plain text.
  'fake.go': 'txt',
  'logger.py': 'txt',
  file_we_dont_want_imported: 'txt',
  // Named .doc/.ppt, but the bytes are OOXML zips.
  'language-docs/eng_spa_mult.doc': 'docx',
  'language-docs/eng_spa_mult.ppt': 'pptx',
  // Refused by name: no partitioner exists (audio, archives, YAML, XSLT stylesheets).
  'CantinaBand3.wav': 'error:unsupported_file_type',
  'simple.zip': 'error:unsupported_file_type',
  'simple.yaml': 'error:unsupported_file_type',
  'unsupported/factbook.xsl': 'error:unsupported_file_type',
  // A password-protected workbook is an OLE file wrapping the encrypted zip.
  'password_protected.xlsx': 'error:encrypted_document',
};
const SAME = { jpeg: 'jpg', htm: 'html', tif: 'tiff' } as Record<string, string>;

function* sampleFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'test_evaluate_files') yield* sampleFiles(path);
    } else yield path;
  }
}

describe.skipIf(!existsSync(SAMPLES))('detectFileType on the sample documents', () => {
  const files = existsSync(SAMPLES) ? [...sampleFiles(SAMPLES)] : [];
  it.each(files.map((path) => [relative(SAMPLES, path), path]))('%s', async (name, path) => {
    const extension = extname(path).slice(1).toLowerCase();
    const expected = EXPECTED_EXCEPTIONS[name] ?? SAME[extension] ?? extension;
    const data = new Uint8Array(readFileSync(path));
    const basename = path.split('/').pop();
    let actual: string;
    try {
      actual = await idOf(data, basename);
    } catch (error) {
      actual = `error:${(error as { code?: string }).code}`;
    }
    expect(actual).toBe(expected);
  });
});
