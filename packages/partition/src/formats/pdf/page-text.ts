import { expandLigature, type Glyph } from '../../layout/glyphs.js';
import type { PageSpace } from './page-space.js';
import type { Pdfium } from './pdfium.js';

/** What the text layer of one page says about its own quality (used by strategy `auto` and hi_res). */
export interface TextLayerStats {
  /** Printable characters read. */
  chars: number;
  /** Characters whose font has no usable Unicode mapping (text that extracts as garbage). */
  unmappedChars: number;
  /** Characters drawn invisibly (render mode 3): typically an OCR layer over a scanned image. */
  invisibleChars: number;
}

/** PDF font descriptor flags (PDF 32000 §9.8.2). */
const FONT_FLAG_ITALIC = 1 << 6;
const FONT_FLAG_FORCE_BOLD = 1 << 18;
/** FPDFTextObj_GetTextRenderMode: 3 = neither fill nor stroke (invisible). */
const RENDER_MODE_INVISIBLE = 3;
/** Text more than this far from upright (radians) is treated as vertical. */
const UPRIGHT_TOLERANCE = 0.17;

const BOLD_NAME = /bold|black|heavy|semibold|demi/i;
const ITALIC_NAME = /italic|oblique/i;

interface FontState {
  size: number;
  bold: boolean;
  italic: boolean;
  fontName: string | undefined;
  invisible: boolean;
  vertical: boolean;
  /** The font has no Unicode map (checked once per text object: it is a property of the font). */
  unmapped: boolean;
}

/**
 * Read every character of a page with its box and font: one pass over PDFium's text page. Whitespace is
 * not kept as characters; it marks the next character as starting a new word (`spaceBefore`).
 */
export function readGlyphs(
  pdfium: Pdfium,
  textPage: number,
  space: PageSpace,
): { glyphs: Glyph[]; stats: TextLayerStats } {
  const x = pdfium.exports;
  const count = x.FPDFText_CountChars(textPage);
  const glyphs: Glyph[] = [];
  const stats: TextLayerStats = { chars: 0, unmappedChars: 0, invisibleChars: 0 };
  if (count <= 0) return { glyphs, stats };
  // One scratch block for out-parameters: FS_RECTF (16 bytes), FS_MATRIX (24), font flags (4), font name.
  const scratch = x.malloc(512);
  const rect = scratch;
  try {
    let lastObject = -1;
    let font: FontState = emptyFont();
    let spaceBefore = false;
    for (let index = 0; index < count; index++) {
      let code = x.FPDFText_GetUnicode(textPage, index);
      if (isSpace(code)) {
        spaceBefore = true;
        continue;
      }
      // PDFium reports a hyphen that ends a line as U+0002; it is the drawn "-" (rejoined by layout).
      if (code === 0x02) code = 0x2d;
      else if (code < 0x20 || code === 0xfffe || code === 0xffff || (code >= 0x7f && code < 0xa0)) {
        if (x.FPDFText_HasUnicodeMapError(textPage, index) === 1) stats.unmappedChars++;
        continue;
      }
      const object = x.FPDFText_GetTextObject(textPage, index);
      if (object !== lastObject) {
        lastObject = object;
        font = readFont(pdfium, textPage, index, object, space, scratch);
      }
      if (!x.FPDFText_GetLooseCharBox(textPage, index, rect)) continue;
      const f32 = pdfium.heapF32();
      const base = rect >> 2;
      // FS_RECTF: left, top, right, bottom (user space).
      const [ax, ay] = space.toDisplay(f32[base]!, f32[base + 1]!);
      const [bx, by] = space.toDisplay(f32[base + 2]!, f32[base + 3]!);
      stats.chars++;
      if (font.invisible) stats.invisibleChars++;
      if (font.unmapped) stats.unmappedChars++;
      glyphs.push({
        text: expandLigature(String.fromCodePoint(code)),
        x0: Math.min(ax, bx),
        y0: Math.min(ay, by),
        x1: Math.max(ax, bx),
        y1: Math.max(ay, by),
        size: font.size,
        bold: font.bold,
        italic: font.italic,
        fontName: font.fontName,
        spaceBefore,
        vertical: font.vertical,
      });
      spaceBefore = false;
    }
  } finally {
    x.free(scratch);
  }
  return { glyphs, stats };
}

function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0xa0 ||
    code === 0x3000 ||
    (code >= 0x2000 && code <= 0x200b)
  );
}

function emptyFont(): FontState {
  return {
    size: 10,
    bold: false,
    italic: false,
    fontName: undefined,
    invisible: false,
    vertical: false,
    unmapped: false,
  };
}

/** Font facts are the same for every character of a text object, so they are read once per object. */
function readFont(
  pdfium: Pdfium,
  textPage: number,
  index: number,
  object: number,
  space: PageSpace,
  scratch: number,
): FontState {
  const x = pdfium.exports;
  const matrixPointer = scratch + 16;
  const flagsPointer = scratch + 40;
  const nameBuffer = scratch + 48;
  const nameLength = 512 - 48;
  // The nominal size (Tf) is often 1 with the real size in the text matrix: scale by the matrix's
  // vertical stretch to get the size as drawn.
  let size = x.FPDFText_GetFontSize(textPage, index);
  if (x.FPDFText_GetMatrix(textPage, index, matrixPointer)) {
    const f32 = pdfium.heapF32();
    const base = matrixPointer >> 2;
    const scale = Math.hypot(f32[base + 2]!, f32[base + 3]!);
    if (scale > 0 && Number.isFinite(scale)) size *= scale;
  }
  const weight = x.FPDFText_GetFontWeight(textPage, index);
  const length = x.FPDFText_GetFontInfo(textPage, index, nameBuffer, nameLength, flagsPointer);
  let fontName: string | undefined;
  let flags = 0;
  if (length > 1) {
    const heap = pdfium.heapU8();
    const raw = Buffer.from(heap.subarray(nameBuffer, nameBuffer + Math.min(length - 1, nameLength - 1)));
    // Subset fonts are named "ABCDEF+RealName".
    fontName = raw.toString('utf8').replace(/^[A-Z]{6}\+/, '');
    flags = pdfium.heapI32()[flagsPointer >> 2] ?? 0;
  }
  const renderMode = object ? x.FPDFTextObj_GetTextRenderMode(object) : 0;
  const angle = x.FPDFText_GetCharAngle(textPage, index);
  // The page turns clockwise for display, which lowers the counter-clockwise angle of its text.
  let display = angle - (space.quarterTurns * Math.PI) / 2;
  display = ((display % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  const upright = display < UPRIGHT_TOLERANCE || display > 2 * Math.PI - UPRIGHT_TOLERANCE;
  return {
    size: size > 0 ? size : 10,
    bold: weight >= 600 || (flags & FONT_FLAG_FORCE_BOLD) !== 0 || BOLD_NAME.test(fontName ?? ''),
    italic: (flags & FONT_FLAG_ITALIC) !== 0 || ITALIC_NAME.test(fontName ?? ''),
    fontName,
    invisible: renderMode === RENDER_MODE_INVISIBLE,
    vertical: angle >= 0 && !upright,
    unmapped: x.FPDFText_HasUnicodeMapError(textPage, index) === 1,
  };
}
