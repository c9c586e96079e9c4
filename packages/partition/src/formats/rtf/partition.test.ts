import { describe, expect, it } from 'vitest';
import { partition, ServiceError } from '../../index.js';

const rtf = (body: string) => new TextEncoder().encode(body);

describe('rtf partitioner', () => {
  it('reads headings, prose, lists, tables, headers and code-page text', async () => {
    const source =
      '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times;}}{\\colortbl;\\red0\\green0\\blue0;}' +
      '{\\stylesheet{\\s0 Normal;}{\\s1 heading 1;}}{\\*\\generator Test;}{\\header \\pard Company header\\par}' +
      '{\\pard\\s1 Annual Summary\\par}' +
      "{\\pard The caf\\'e9 served \\b more guests\\b0  than ever before this year.\\par}" +
      "{\\pard\\ls1\\ilvl1{\\listtext \\'95\\tab}Second level item\\par}" +
      '{\\pard Em dash\\emdash and \\u8364? euro sign here.\\par}' +
      '{\\pard {\\field{\\*\\fldinst HYPERLINK "https://example.com"}{\\fldrslt Example link}} text\\par}' +
      '\\trowd\\cellx1000\\cellx2000\\pard\\intbl A1\\cell B1\\cell\\row' +
      '\\trowd\\cellx1000\\cellx2000\\pard\\intbl A2\\cell B2\\cell\\row' +
      '\\pard\\page After the break.\\par' +
      '{\\pict\\pngblip 89504e470d0a}}';
    const elements = await partition({ data: rtf(source), filename: 'summary.rtf' });
    expect(elements.map((e) => [e.type, e.text, e.metadata.page_number])).toEqual([
      ['Header', 'Company header', 1],
      ['Title', 'Annual Summary', 1],
      ['NarrativeText', 'The café served more guests than ever before this year.', 1],
      ['ListItem', 'Second level item', 1],
      // The space after a control word is its delimiter: "\\emdash and" is "—and".
      ['NarrativeText', 'Em dash—and € euro sign here.', 1],
      ['UncategorizedText', 'Example link text', 1],
      ['Table', 'A1 B1\nA2 B2', 1],
      // Three words and no verb ("the break" is a noun): a fragment, not prose (text/text-type.ts).
      ['UncategorizedText', 'After the break.', 2],
    ]);
    expect(elements[1]!.metadata.category_depth).toBe(0);
    expect(elements[2]!.metadata.emphasized_text_contents).toEqual(['more guests']);
    expect(elements[3]!.metadata.category_depth).toBe(1);
    expect(elements[5]!.metadata.link_urls).toEqual(['https://example.com']);
    expect(elements[6]!.metadata.text_as_html).toBe(
      '<table><tbody><tr><td>A1</td><td>B1</td></tr><tr><td>A2</td><td>B2</td></tr></tbody></table>',
    );
  });

  it('reads RTF that encapsulates plain text (Outlook \\fromtext) as that text', async () => {
    const source =
      '{\\rtf1\\ansi\\ansicpg1252\\fromtext \\deff0{\\fonttbl{\\f0 Courier;}}' +
      "\\pard Dear Ann,\\par\\par The invoice for March is attached; the caf\\'e9 order follows.\\par}";
    const elements = await partition({ data: rtf(source), filename: 'note.rtf' });
    expect(elements.map((element) => element.text)).toEqual([
      'Dear Ann,',
      'The invoice for March is attached; the café order follows.',
    ]);
    expect(elements[0]!.metadata.filetype).toBe('application/rtf');
  });

  it('refuses input that is not RTF when RTF is declared', async () => {
    await expect(
      partition({ data: rtf('hello'), filename: 'x.rtf' }, { content_type: 'application/rtf' }),
    ).rejects.toSatisfy((error) => error instanceof ServiceError && error.code === 'corrupt_document');
  });

  it('refuses empty and binary files named .rtf', async () => {
    for (const data of [new Uint8Array(0), new Uint8Array(512).map((_, i) => (i * 97) % 256)]) {
      const error = await partition({ data, filename: 'x.rtf' }).catch((e) => e);
      expect(error).toBeInstanceOf(ServiceError);
      // Detection may already refuse binary bytes; either way the error is typed.
      expect(error.code).toMatch(/corrupt_document|unsupported_file_type/);
    }
  });

  it('survives truncated RTF', async () => {
    const elements = await partition({
      data: rtf('{\\rtf1\\ansi {\\pard Unfinished paragraph text'),
      filename: 'x.rtf',
    });
    expect(elements.map((e) => e.text)).toEqual(['Unfinished paragraph text']);
  });
});
