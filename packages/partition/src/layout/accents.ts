import type { Glyph } from './glyphs.js';

/**
 * Accents drawn as glyphs of their own. TeX's older font encodings (and some other producers) draw "ğ"
 * as a "g" plus a spacing breve placed over it, often after the rest of the word, so the breve would
 * become a stray one-character line ("˘") and the name read "Oguz". An accent that sits on a letter is
 * attached to it as the combining mark (text is NFC-normalised later: "g" + U+0306 → "ğ").
 */

/** Spacing accents and the combining marks they stand for. */
const COMBINING: Record<string, string> = {
  '\u00b4': '\u0301', // acute
  '\u0060': '\u0300', // grave
  '\u02c6': '\u0302', // circumflex
  '\u02dc': '\u0303', // tilde
  '\u00af': '\u0304', // macron
  '\u02d8': '\u0306', // breve
  '\u02d9': '\u0307', // dot above
  '\u00a8': '\u0308', // diaeresis
  '\u02da': '\u030a', // ring above
  '\u02dd': '\u030b', // double acute
  '\u02c7': '\u030c', // caron
  '\u00b8': '\u0327', // cedilla
  '\u02db': '\u0328', // ogonek
};

export function attachAccents(glyphs: readonly Glyph[]): readonly Glyph[] {
  if (!glyphs.some((glyph) => COMBINING[glyph.text] !== undefined)) return glyphs;
  const result = glyphs.map((glyph) => ({ ...glyph }));
  const attached = new Set<Glyph>();
  for (const accent of result) {
    const mark = COMBINING[accent.text];
    if (mark === undefined) continue;
    const base = letterUnder(result, accent);
    if (!base) continue;
    base.text += mark;
    attached.add(accent);
  }
  return result.filter((glyph) => !attached.has(glyph));
}

/** The letter whose box holds the accent's horizontal centre and overlaps it vertically, nearest first. */
function letterUnder(glyphs: readonly Glyph[], accent: Glyph): Glyph | undefined {
  const centre = (accent.x0 + accent.x1) / 2;
  let best: Glyph | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const glyph of glyphs) {
    if (glyph === accent || glyph.vertical !== accent.vertical || !/^\p{L}/u.test(glyph.text)) continue;
    if (centre < glyph.x0 || centre > glyph.x1) continue;
    if (Math.min(glyph.y1, accent.y1) - Math.max(glyph.y0, accent.y0) <= 0) continue;
    const distance = Math.abs((glyph.x0 + glyph.x1) / 2 - centre) + Math.abs(glyph.y0 - accent.y0);
    if (distance < bestDistance) {
      best = glyph;
      bestDistance = distance;
    }
  }
  return best;
}
