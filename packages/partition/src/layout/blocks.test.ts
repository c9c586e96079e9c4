import { describe, expect, it } from 'vitest';
import { buildBlocks } from './blocks.js';
import type { TextLine } from './types.js';

const ocrLine = (text: string, y0: number, height: number): TextLine => ({
  text,
  x0: 90,
  y0,
  x1: 500,
  y1: y0 + height,
  fontSize: height * 0.8,
  origin: 'ocr',
});

describe('buildBlocks', () => {
  it('keeps an OCR paragraph whole although its box heights swing with descenders', () => {
    const lines = [
      ocrLine('holders reported strong sales of fresh', 244, 22),
      ocrLine('bread, cheese and early vegetables, and', 274, 23),
      ocrLine('several of them sold out before eleven.', 305, 18),
    ];
    expect(buildBlocks(lines).map((block) => block.text)).toEqual([
      'holders reported strong sales of fresh bread, cheese and early vegetables, and several of them sold out before eleven.',
    ]);
  });

  it('still separates a text-layer heading from body text a fifth smaller', () => {
    const lines: TextLine[] = [
      { text: 'Results', x0: 72, y0: 100, x1: 140, y1: 112, fontSize: 12, origin: 'text_layer' },
      {
        text: 'The body follows here.',
        x0: 72,
        y0: 115,
        x1: 300,
        y1: 125,
        fontSize: 10,
        origin: 'text_layer',
      },
    ];
    expect(buildBlocks(lines)).toHaveLength(2);
  });

  it('continues a keyword series whose second line starts with its separator, but still starts list items', () => {
    const line = (text: string, y0: number): TextLine => ({
      text,
      x0: 72,
      y0,
      x1: 400,
      y1: y0 + 10,
      fontSize: 9,
      origin: 'text_layer',
    });
    const keywords = [
      line('Keywords: Document Image Analysis · Deep Learning · Layout Analysis', 100),
      line('· Character Recognition · Open Source library · Toolkit.', 111),
    ];
    expect(buildBlocks(keywords).map((block) => [block.listItem, block.text])).toEqual([
      [
        false,
        'Keywords: Document Image Analysis · Deep Learning · Layout Analysis · Character Recognition · Open Source library · Toolkit.',
      ],
    ]);
    const list = [line('• First item of the list', 100), line('• Second item of the list', 111)];
    expect(buildBlocks(list).map((block) => block.listItem)).toEqual([true, true]);
  });

  it('keeps a listing in a monospaced face as one block with its line breaks and indents', () => {
    const mono = (text: string, x0: number, y0: number): TextLine => ({
      text,
      x0,
      y0,
      x1: x0 + text.length * 6,
      y1: y0 + 10,
      fontSize: 10,
      fontName: 'DejaVuSansMono',
      origin: 'text_layer',
    });
    const lines = [
      { ...mono('Example: two cross-connects', 72, 88), fontName: 'Arial-BoldMT', bold: true },
      mono('pxc 1 create', 72, 100),
      mono('port 1/x1/1/c1/1', 96, 111),
      mono('exit', 72, 122),
    ];
    const blocks = buildBlocks(lines);
    expect(blocks.map((block) => [block.code, block.text])).toEqual([
      [false, 'Example: two cross-connects'],
      [true, 'pxc 1 create\n    port 1/x1/1/c1/1\nexit'],
    ]);
    // Typewriter e-mail addresses alone are not a listing.
    const addresses = [mono('ann@example.org', 72, 100), mono('bob@example.org', 72, 111)];
    expect(buildBlocks(addresses).map((block) => block.code)).toEqual([false]);
  });
});
