import { deflateSync } from 'node:zlib';
import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  Footer,
  Header,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  PageBreak,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { describe, expect, it } from 'vitest';
import { type Element, partition, ServiceError } from '../../index.js';
import { fakeEncryptedOffice, zipWithBomb } from '../ooxml/test-support.js';

/** A 1×1 PNG, built here so the fixture needs no file. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function sampleDocx(): Promise<Uint8Array> {
  const cell = (text: string, extra: Partial<ConstructorParameters<typeof TableCell>[0]> = {}) =>
    new TableCell({ children: [new Paragraph(text)], ...extra });
  const document = new Document({
    numbering: {
      config: [
        {
          reference: 'numbers',
          levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START }],
        },
      ],
    },
    sections: [
      {
        properties: { titlePage: true },
        headers: {
          default: new Header({ children: [new Paragraph('Running header')] }),
          first: new Header({ children: [new Paragraph('Cover header')] }),
        },
        footers: { default: new Footer({ children: [new Paragraph('Running footer')] }) },
        children: [
          new Paragraph({ text: 'Annual Report', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Introduction', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('The committee reviewed '),
              new TextRun({ text: 'every budget line', bold: true }),
              new TextRun(' and found '),
              new TextRun({ text: 'no errors', italics: true }),
              new TextRun(' in the accounts.'),
            ],
          }),
          new Paragraph({ text: 'First bullet point here', bullet: { level: 0 } }),
          new Paragraph({ text: 'Nested bullet point here', bullet: { level: 1 } }),
          new Paragraph({ text: 'Numbered step one', numbering: { reference: 'numbers', level: 0 } }),
          new Paragraph({
            children: [
              new TextRun('Read the '),
              new ExternalHyperlink({
                link: 'https://example.com/guide',
                children: [new TextRun('online guide')],
              }),
              new TextRun(' for more details.'),
            ],
          }),
          new Table({
            rows: [
              new TableRow({ tableHeader: true, children: [cell('Name'), cell('Q1'), cell('Q2')] }),
              new TableRow({ children: [cell('Sales', { rowSpan: 2 }), cell('10'), cell('20')] }),
              new TableRow({ children: [cell('30'), cell('40')] }),
              new TableRow({ children: [cell('Total', { columnSpan: 2 }), cell('100')] }),
            ],
          }),
          new Paragraph({ children: [new PageBreak()] }),
          new Paragraph({ text: 'Details', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({
            children: [
              new ImageRun({ type: 'png', data: tinyPng(), transformation: { width: 10, height: 10 } }),
            ],
          }),
          new Paragraph('The second page describes the plan for the next year in detail.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function errorCode(
  data: Uint8Array,
  filename: string,
  contentType?: string,
): Promise<string | undefined> {
  try {
    await partition({ data, filename }, contentType ? { content_type: contentType } : {});
  } catch (error) {
    return error instanceof ServiceError ? error.code : `untyped: ${String(error)}`;
  }
  return undefined;
}

const summary = (elements: Element[]) => elements.map((e) => [e.type, e.text]);

describe('docx partitioner', () => {
  it('reads headings, paragraphs, lists, tables, headers, footers, images in order', async () => {
    const elements = await partition(
      { data: await sampleDocx(), filename: 'report.docx' },
      { include_page_breaks: true },
    );
    expect(summary(elements)).toEqual([
      ['Header', 'Running header'],
      ['Header', 'Cover header'],
      ['Title', 'Annual Report'],
      ['Title', 'Introduction'],
      ['NarrativeText', 'The committee reviewed every budget line and found no errors in the accounts.'],
      ['ListItem', 'First bullet point here'],
      ['ListItem', 'Nested bullet point here'],
      ['ListItem', 'Numbered step one'],
      ['NarrativeText', 'Read the online guide for more details.'],
      ['Table', 'Name Q1 Q2\nSales 10 20\n30 40\nTotal 100'],
      ['PageBreak', ''],
      ['Title', 'Details'],
      ['Image', ''],
      ['NarrativeText', 'The second page describes the plan for the next year in detail.'],
      ['Footer', 'Running footer'],
    ]);
    const byText = (text: string) => elements.find((e) => e.text === text)!;
    expect(byText('Running header').metadata.header_footer_type).toBe('primary');
    expect(byText('Cover header').metadata.header_footer_type).toBe('first_page');
    expect(byText('Annual Report').metadata.category_depth).toBe(0);
    expect(byText('Introduction').metadata.category_depth).toBe(0);
    expect(byText('Details').metadata.category_depth).toBe(1);
    expect(byText('Nested bullet point here').metadata.category_depth).toBe(1);
    expect(byText('Nested bullet point here').metadata.parent_id).toBe(
      byText('First bullet point here').element_id,
    );
    const prose = byText('The committee reviewed every budget line and found no errors in the accounts.');
    expect(prose.metadata.emphasized_text_contents).toEqual(['every budget line', 'no errors']);
    expect(prose.metadata.emphasized_text_tags).toEqual(['b', 'i']);
    const link = byText('Read the online guide for more details.').metadata;
    expect(link.link_urls).toEqual(['https://example.com/guide']);
    expect(link.links).toEqual([{ text: 'online guide', url: 'https://example.com/guide', start_index: 9 }]);
    expect(byText('Name Q1 Q2\nSales 10 20\n30 40\nTotal 100').metadata.text_as_html).toBe(
      '<table><thead><tr><th>Name</th><th>Q1</th><th>Q2</th></tr></thead><tbody>' +
        '<tr><td rowspan="2">Sales</td><td>10</td><td>20</td></tr><tr><td>30</td><td>40</td></tr>' +
        '<tr><td colspan="2">Total</td><td>100</td></tr></tbody></table>',
    );
    expect(byText('Introduction').metadata.page_number).toBe(1);
    expect(byText('Details').metadata.page_number).toBe(2);
    expect(byText('Running footer').metadata.page_number).toBe(2);
    expect(elements.every((e) => e.metadata.filetype?.includes('wordprocessingml'))).toBe(true);
  });

  it('adds image payloads only when Image blocks are asked for', async () => {
    const data = await sampleDocx();
    const plain = (await partition({ data, filename: 'a.docx' })).find((e) => e.type === 'Image')!;
    expect(plain.metadata.image_base64).toBeUndefined();
    expect(plain.metadata.image_mime_type).toBe('image/png');
    const withImages = await partition(
      { data, filename: 'a.docx' },
      { extract_image_block_types: ['Image'] },
    );
    const image = withImages.find((e) => e.type === 'Image')!;
    expect(Buffer.from(image.metadata.image_base64!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('gives typed errors for empty, truncated, garbage and encrypted files', async () => {
    const data = await sampleDocx();
    expect(await errorCode(new Uint8Array(0), 'empty.docx')).toMatch(
      /corrupt_document|unsupported_file_type/,
    );
    // Detection may not recognise a truncated zip as docx; with the type declared, the docx reader reports it.
    expect(await errorCode(data.subarray(0, data.length / 2), 'half.docx')).toMatch(
      /corrupt_document|unsupported_file_type/,
    );
    expect(await errorCode(data.subarray(0, data.length / 2), 'half.docx', DOCX_MIME)).toBe(
      'corrupt_document',
    );
    expect(await errorCode(new Uint8Array(0), 'empty.docx', DOCX_MIME)).toBe('corrupt_document');
    expect(await errorCode(new TextEncoder().encode('just text'), 'x.docx', DOCX_MIME)).toBe(
      'corrupt_document',
    );
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
    expect(await errorCode(garbage, 'garbage.docx')).toMatch(/corrupt_document|unsupported_file_type/);
    expect(await errorCode(fakeEncryptedOffice(), 'secret.docx')).toBe('encrypted_document');
  });

  it('stops a zip bomb inside a docx quickly with limit_exceeded', async () => {
    const data = await sampleDocx();
    const { unzipSync } = await import('fflate');
    const parts = unzipSync(data);
    delete parts['word/document.xml'];
    // Declares 3 GiB: refused from the header, nothing inflated.
    const declared = zipWithBomb(parts, 'word/document.xml', 3 * 1024 ** 3, 1024);
    expect(await errorCode(declared, 'bomb.docx')).toBe('limit_exceeded');
    // Declares 1 KiB but inflates to 64 MiB: stopped at the declared size.
    const lying = zipWithBomb(parts, 'word/document.xml', 1024, 64 * 1024 * 1024);
    expect(await errorCode(lying, 'bomb2.docx')).toBe('limit_exceeded');
  });

  it('uses Word rendered page breaks when present, splitting a paragraph that spans two pages', async () => {
    const document = new Document({
      sections: [
        {
          children: [
            new Paragraph({
              children: [new TextRun('Closing words of page one '), new TextRun('opening words of page two')],
            }),
            new Paragraph({ children: [new PageBreak()] }),
            new Paragraph('Still on page two because Word rendered no break here.'),
          ],
        },
      ],
    });
    const { unzipSync, zipSync, strToU8, strFromU8 } = await import('fflate');
    const parts = unzipSync(new Uint8Array(await Packer.toBuffer(document)));
    const xml = strFromU8(parts['word/document.xml']!);
    const marked = xml.replace(/(<w:t[^>]*>opening words)/, '<w:lastRenderedPageBreak/>$1');
    expect(marked).not.toBe(xml);
    parts['word/document.xml'] = strToU8(marked);
    const elements = await partition(
      { data: zipSync(parts), filename: 'rendered.docx' },
      { include_page_breaks: true },
    );
    // Types come from the shared text classifier; this test is about pages and fragments.
    expect(elements.map((e) => [e.type === 'PageBreak', e.text, e.metadata.page_number])).toEqual([
      [false, 'Closing words of page one', 1],
      [true, '', undefined],
      [false, 'opening words of page two', 2],
      [false, 'Still on page two because Word rendered no break here.', 2],
    ]);
  });

  it('promotes a short all-bold Normal paragraph to Title, but not a bold sentence', async () => {
    const document = new Document({
      sections: [
        {
          children: [
            new Paragraph({ children: [new TextRun({ text: 'Payment Terms', bold: true })] }),
            new Paragraph({
              children: [new TextRun({ text: 'Invoices are due within thirty days.', bold: true })],
            }),
            new Paragraph({ children: [new TextRun('Late Fees')] }),
          ],
        },
      ],
    });
    const elements = await partition({
      data: new Uint8Array(await Packer.toBuffer(document)),
      filename: 'terms.docx',
    });
    expect(elements.map((e) => e.type)).toEqual(['Title', 'NarrativeText', 'UncategorizedText']);
  });
});
