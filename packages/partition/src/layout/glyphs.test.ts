import { describe, expect, it } from 'vitest';
import { expandLigature, type Glyph, glyphsToLines, removeDuplicateGlyphs } from './glyphs.js';

/** Characters of one word laid out left to right at `x`, 10 pt type, advance 6 pt. */
function word(text: string, x: number, y = 100, options: Partial<Glyph> = {}): Glyph[] {
  return [...text].map((char, i) => ({
    text: char,
    x0: x + i * 6,
    x1: x + i * 6 + 6,
    y0: y,
    y1: y + 12,
    size: 10,
    bold: false,
    italic: false,
    spaceBefore: false,
    ...options,
  }));
}

describe('glyphsToLines', () => {
  it('puts word spaces where the gap is wide or the text layer had a space', () => {
    const glyphs = [...word('Hello', 0), ...word('world', 34), ...word('again', 65, 100)];
    glyphs[10]!.spaceBefore = true;
    expect(glyphsToLines(glyphs).map((line) => line.text)).toEqual(['Hello world again']);
  });

  it('splits at wide gaps and at vertical ruling lines (table cells)', () => {
    const glyphs = [...word('Left', 0), ...word('Right', 60)];
    expect(glyphsToLines(glyphs).map((line) => line.text)).toEqual(['Left', 'Right']);
    const close = [...word('Cell', 0), ...word('Next', 28)];
    expect(glyphsToLines(close).map((line) => line.text)).toEqual(['Cell Next']);
    const rule = { x0: 25.5, x1: 26, y0: 90, y1: 120 };
    expect(glyphsToLines(close, [rule]).map((line) => line.text)).toEqual(['Cell', 'Next']);
  });

  it('keeps lines apart and joins pieces of one line written out of order', () => {
    const lines = glyphsToLines([
      ...word('first', 0, 100),
      ...word('second', 0, 120),
      ...word('line', 34, 100),
    ]);
    expect(lines.map((line) => line.text)).toEqual(['first line', 'second']);
  });

  it('drops characters drawn twice at the same place but keeps real double letters', () => {
    const bold = [...word('Bold', 0), ...word('Bold', 0.4)];
    expect(removeDuplicateGlyphs(bold)).toHaveLength(4);
    expect(glyphsToLines(bold)[0]?.text).toBe('Bold');
    expect(glyphsToLines(word('Hello', 0))[0]?.text).toBe('Hello');
  });

  it('joins ligature parts that share one box and expands ligature characters', () => {
    const glyphs = word('Uni', 0);
    glyphs.push({ ...glyphs[2]!, text: 'f', x0: 18, x1: 27 }, { ...glyphs[2]!, text: 'i', x0: 18, x1: 27 });
    glyphs.push(...word('ed', 27));
    expect(glyphsToLines(glyphs)[0]?.text).toBe('Unified');
    // "ﬀ" comes as two "f" with one box: not a character drawn twice.
    const off = word('of', 0);
    off.push({ ...off[1]!, text: 'f' }, ...word('set', 12));
    expect(glyphsToLines(off)[0]?.text).toBe('offset');
    expect(expandLigature('\ufb01')).toBe('fi');
    expect(expandLigature('a')).toBe('a');
  });

  it('attaches an accent drawn on its own to the letter under it, and leaves a free-standing one alone', () => {
    // "Oguz" with a breve drawn after the word over its "g", as TeX's OT1 fonts do.
    const glyphs = word('Oguz', 0);
    glyphs.push({ ...glyphs[1]!, text: '\u02d8', x0: 7.5, x1: 10.5 });
    expect(glyphsToLines(glyphs).map((line) => line.text)).toEqual(['O\u011fuz']);
    const code = [...word('a', 0), { ...word('a', 0)[0]!, text: '\u0060', x0: 6, x1: 12 }, ...word('b', 12)];
    expect(glyphsToLines(code).map((line) => line.text)).toEqual(['a`b']);
  });

  it('reports majority font facts and joins vertical text running up the page', () => {
    const glyphs = word('Bold', 0, 100, { bold: true, fontName: 'Helvetica-Bold' });
    expect(glyphsToLines(glyphs)[0]).toMatchObject({ bold: true, fontName: 'Helvetica-Bold', fontSize: 10 });
    const up = [...'arXiv'].map((char, i) => ({
      text: char,
      x0: 10,
      x1: 22,
      y0: 500 - i * 6 - 6,
      y1: 500 - i * 6,
      size: 10,
      bold: false,
      italic: false,
      spaceBefore: false,
      vertical: true,
    }));
    const [line] = glyphsToLines(up);
    expect(line?.text).toBe('arXiv');
    expect(line?.vertical).toBe(true);
  });
});
