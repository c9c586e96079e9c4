import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';
import { splitBlocks, wrapWidth } from './blocks.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const typesAndTexts = async (text: string) =>
  (await partition({ data: utf8(text), filename: 'doc.txt' })).map((element) => [element.type, element.text]);

/** Wrap prose at `width` columns the way editors and mail clients do. */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

const PARAGRAPHS = [
  'The committee met on Tuesday to review the budget for the coming year, and it agreed to fund the new library wing.',
  'Construction will begin in the spring. The architects expect the work to take eighteen months, weather permitting, and the builders have promised regular updates.',
  'Residents can follow the progress on the town website, where photographs will be posted every week.',
];

describe('txt partitioner: blocks', () => {
  it('joins hard-wrapped lines into paragraphs, with or without blank lines between them', async () => {
    const wrapped = PARAGRAPHS.map((paragraph) => wrap(paragraph, 60));
    for (const text of [wrapped.join('\n\n'), wrapped.join('\n')]) {
      expect(splitBlocks(text)).toEqual(PARAGRAPHS);
    }
  });

  it('keeps one block per line for short lines: signatures, addresses, headings', () => {
    const text = 'Best regards,\n\n--\nAnn Smith\nHead of Operations\nExample Corp';
    expect(splitBlocks(text)).toEqual([
      'Best regards,',
      '--',
      'Ann Smith',
      'Head of Operations',
      'Example Corp',
    ]);
  });

  it('keeps unwrapped paragraphs (one per line) apart', () => {
    const text = PARAGRAPHS.join('\n');
    expect(wrapWidth(text)).toBeUndefined();
    expect(splitBlocks(text)).toEqual(PARAGRAPHS);
  });

  it('joins a line that ends mid-sentence with a lower-case continuation', () => {
    expect(
      splitBlocks('This plain text version was prepared by the project,\nhttps://example.org/udhr.'),
    ).toEqual(['This plain text version was prepared by the project, https://example.org/udhr.']);
    expect(splitBlocks('We will meet in the\nafternoon.')).toEqual(['We will meet in the afternoon.']);
  });

  it('starts a block at each bullet or number and joins wrapped item lines', () => {
    const text = [
      'Steps:',
      '1. Download the installer from the',
      '   company website.',
      '2. Run it.',
      '- a bullet that wraps onto',
      '  a second line',
      '• another bullet',
    ].join('\n');
    expect(splitBlocks(text)).toEqual([
      'Steps:',
      '1. Download the installer from the company website.',
      '2. Run it.',
      '- a bullet that wraps onto a second line',
      '• another bullet',
    ]);
  });
});

describe('txt partitioner: elements', () => {
  it('classifies titles, narrative text and list items', async () => {
    const text = [
      'Quarterly Operations Review',
      '',
      wrap(
        'The operations team reduced average delivery time by twelve percent. Costs stayed within the approved budget for the quarter.',
        50,
      ),
      '',
      'Next Steps',
      '',
      '• Hire two more dispatchers for the night shift.',
      '• Replace the routing software before the holiday season.',
    ].join('\n');
    expect(await typesAndTexts(text)).toEqual([
      ['Title', 'Quarterly Operations Review'],
      [
        'NarrativeText',
        'The operations team reduced average delivery time by twelve percent. Costs stayed within the approved budget for the quarter.',
      ],
      ['Title', 'Next Steps'],
      ['ListItem', 'Hire two more dispatchers for the night shift.'],
      ['ListItem', 'Replace the routing software before the holiday season.'],
    ]);
  });

  it('links sections: list items and paragraphs under their title', async () => {
    const elements = await partition({
      data: utf8('Summary\n\nThe plan was approved by the board today.\n'),
      filename: 'a.txt',
    });
    expect(elements[1]!.metadata.parent_id).toBe(elements[0]!.element_id);
  });

  it('decodes UTF-16, UTF-32, windows-1252 and a BOM', async () => {
    const text = 'Le café est prêt pour tout le monde ce matin.';
    const variants = [
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      Buffer.from(text, 'utf16le'),
      iconv.encode(text, 'utf-32le', { addBOM: true }),
      iconv.encode(text, 'windows-1252'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    ];
    for (const data of variants) {
      const elements = await partition({ data: new Uint8Array(data), filename: 'fr.txt' });
      expect(elements.map((element) => element.text)).toEqual([text]);
    }
  });

  it('repairs text that was encoded as UTF-8 twice', async () => {
    const doubly = Buffer.from(
      Buffer.from('The 1986–1990 seasons were his best.', 'utf8').toString('latin1'),
      'utf8',
    );
    const [element] = await partition({ data: new Uint8Array(doubly), filename: 'x.txt' });
    expect(element!.text).toBe('The 1986–1990 seasons were his best.');
  });

  it('uses an explicit encoding as given', async () => {
    const data = iconv.encode('Grüße aus Köln und viele Grüße an alle.', 'iso-8859-15');
    const [element] = await partition(
      { data: new Uint8Array(data), filename: 'de.txt' },
      { encoding: 'iso-8859-15' },
    );
    expect(element!.text).toBe('Grüße aus Köln und viele Grüße an alle.');
  });

  it('gives no elements for empty or blank text', async () => {
    expect(await partition({ data: new Uint8Array(), filename: 'empty.txt' })).toEqual([]);
    expect(await partition({ data: utf8(' \n\t\n '), filename: 'blank.txt' })).toEqual([]);
  });
});

describe('txt partitioner: bad input', () => {
  it('refuses an unknown encoding name with invalid_encoding', async () => {
    await expect(
      partition({ data: utf8('hello'), filename: 'a.txt' }, { encoding: 'no-such-codec' }),
    ).rejects.toMatchObject({
      code: 'invalid_encoding',
    });
  });

  it('refuses bytes that are not UTF-8 when UTF-8 is forced', async () => {
    await expect(
      partition({ data: new Uint8Array([0x48, 0xff, 0xfe, 0x41]), filename: 'a.txt' }, { encoding: 'utf-8' }),
    ).rejects.toMatchObject({ code: 'invalid_encoding' });
  });

  it('refuses binary data named .txt with a typed error naming what it is', async () => {
    const garbage = new Uint8Array(1024).map((_, index) => (index * 131 + 7) % 256);
    await expect(partition({ data: garbage, filename: 'notes.txt' })).rejects.toMatchObject({
      code: 'unsupported_file_type',
      message: expect.stringContaining('application/octet-stream'),
    });
  });
});
