import sharp from 'sharp';
import type { RgbaImage } from '../types.js';

/**
 * Images of known text for OCR tests and the evaluation: lines of text drawn with an SVG (rendered by
 * sharp's librsvg with the system's DejaVu fonts), on a white page.
 */
export interface TextBlock {
  text: string;
  /** Left edge and baseline in pixels. */
  x: number;
  y: number;
  fontSize: number;
  bold?: boolean;
  family?: 'DejaVu Sans' | 'DejaVu Serif';
}

export interface RuleLine {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Stroke width in pixels. */
  width?: number;
}

export interface PageDrawing {
  width: number;
  height: number;
  blocks: TextBlock[];
  rules?: RuleLine[];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function pageSvg(page: PageDrawing): string {
  const texts = page.blocks.map(
    (block) =>
      `<text x="${block.x}" y="${block.y}" font-family="${block.family ?? 'DejaVu Sans'}" font-size="${block.fontSize}"${block.bold ? ' font-weight="bold"' : ''}>${escapeXml(block.text)}</text>`,
  );
  const rules = (page.rules ?? []).map(
    (rule) =>
      `<line x1="${rule.x0}" y1="${rule.y0}" x2="${rule.x1}" y2="${rule.y1}" stroke="black" stroke-width="${rule.width ?? 2}"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${page.width}" height="${page.height}"><rect width="100%" height="100%" fill="white"/>${rules.join('')}${texts.join('')}</svg>`;
}

/** Render a page drawing to RGBA pixels. */
export async function drawPage(page: PageDrawing): Promise<RgbaImage> {
  const { data, info } = await sharp(Buffer.from(pageSvg(page)))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/** Render a page drawing to an encoded image file (png, jpeg, tiff, webp...). */
export async function drawPageFile(
  page: PageDrawing,
  format: 'png' | 'jpeg' | 'tiff' | 'webp' | 'gif' | 'heif',
): Promise<Uint8Array> {
  const image = sharp(Buffer.from(pageSvg(page))).flatten({ background: 'white' });
  const encoded = format === 'heif' ? image.heif({ compression: 'av1' }) : image.toFormat(format);
  return new Uint8Array(await encoded.toBuffer());
}

/** Lines of text laid out top to bottom with the given size and spacing (1.5 line height). */
export function paragraphLines(
  lines: readonly string[],
  options: { x: number; y: number; fontSize: number },
): TextBlock[] {
  return lines.map((text, index) => ({
    text,
    x: options.x,
    y: options.y + index * options.fontSize * 1.5,
    fontSize: options.fontSize,
  }));
}

export interface Degradation {
  /** Rotation in degrees (a scan fed in at an angle). */
  skewDegrees?: number;
  /** Gaussian blur sigma in pixels (out of focus, low-resolution scan). */
  blur?: number;
  /** Standard deviation of added pixel noise, 0..255. */
  noise?: number;
  /** Re-encode as JPEG at this quality (compression artefacts). */
  jpegQuality?: number;
}

/** A "scanned" copy of a clean page: skewed, blurred, noisy, compressed; deterministic (seeded noise). */
export async function degrade(image: RgbaImage, options: Degradation, seed = 1): Promise<RgbaImage> {
  let pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
  if (options.skewDegrees) pipeline = pipeline.rotate(options.skewDegrees, { background: '#ffffff' });
  if (options.blur) pipeline = pipeline.blur(options.blur);
  const { data, info } = await pipeline
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
  if (options.noise) {
    let state = seed >>> 0 || 1;
    const uniform = () => {
      // xorshift32: fast, seeded, good enough for pixel noise.
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return ((state >>> 0) + 0.5) / 4294967296;
    };
    for (let i = 0; i < pixels.length; i += 4) {
      const gaussian = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
      const delta = gaussian * options.noise;
      for (let c = 0; c < 3; c++) pixels[i + c] = Math.max(0, Math.min(255, pixels[i + c]! + delta));
    }
  }
  let result: RgbaImage = { data: pixels, width: info.width, height: info.height };
  if (options.jpegQuality) {
    const jpeg = await sharp(result.data, {
      raw: { width: result.width, height: result.height, channels: 4 },
    })
      .jpeg({ quality: options.jpegQuality })
      .toBuffer();
    const decoded = await sharp(jpeg).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    result = {
      data: new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length),
      width: decoded.info.width,
      height: decoded.info.height,
    };
  }
  return result;
}
