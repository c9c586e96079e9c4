import type { Box, ImageRegion, PageInput, Rule, TextLine } from '../layout/types.js';
import type { OcrEngine, RgbaImage } from '../ocr/types.js';
import { deskew } from './deskew.js';
import type { LayoutAnalyser } from './layout-model.js';
import { overlapShare } from './rows.js';
import { detectRules, eraseRules } from './rules.js';
import type { SourcePage } from './source.js';
import { judgeTextLayer } from './text-quality.js';

/**
 * One page of hi_res or ocr_only, turned into the shared layout input (PageInput) in PixelSpace: the
 * coordinates of the page image (rendered PDF page or decoded picture), origin top-left.
 *
 * - ocr_only: every line comes from OCR of the whole page (straightened first when skewed).
 * - hi_res: text-layer lines where the PDF has usable text (scaled from points to pixels), OCR of the
 *   whole page where it has none (scans) or only junk, and OCR of the pictures of a born-digital page
 *   (text inside images). Ruling lines come from the pixels and the PDF's vector paths; layout regions
 *   from the layout analyser.
 */
export interface PageAnalysisSettings {
  mode: 'hi_res' | 'ocr_only';
  ocr: OcrEngine;
  /** Engine language codes (ocr/languages.ts). */
  languages: readonly string[];
  /** hi_res only. */
  layout?: LayoutAnalyser | undefined;
}

export interface AnalysedPage extends PageInput {
  system: 'PixelSpace';
  /** Name of the OCR engine when any line came from OCR. */
  ocrEngine?: string | undefined;
  /** Name of the layout analyser that produced `regions`. */
  layoutModel?: string | undefined;
}

/** Pictures smaller than this share of the page, or thinner than MIN_PICTURE_SIDE, are not OCR'd. */
const MIN_PICTURE_SHARE = 0.01;
const MIN_PICTURE_SIDE = 24;
/** An OCR line that overlaps text-layer text this much repeats it (a picture behind real text). */
const DUPLICATE_OVERLAP = 0.3;

export async function analysePage(
  page: SourcePage,
  pageNumber: number,
  settings: PageAnalysisSettings,
): Promise<AnalysedPage> {
  const textLayer = page.textLayer;
  const useTextLayer = settings.mode === 'hi_res' && judgeTextLayer(textLayer).usable;
  // A page read wholly by OCR may be a skewed scan: straighten it first. (A page with a usable text
  // layer is born digital and must keep the geometry its text layer is in.)
  const image = useTextLayer ? page.image : (await deskew(page.image)).image;
  const base = { pageNumber, width: image.width, height: image.height, system: 'PixelSpace' as const };
  const detection = detectRules(image);
  // Tesseract skips text boxed in by table rules, and rules confuse both engines' line finding:
  // OCR reads the page with its rules painted out.
  const ocrImage = detection.rules.length > 0 ? eraseRules(image, detection) : image;
  if (settings.mode === 'ocr_only') {
    const lines = await settings.ocr.recognize(ocrImage, settings.languages);
    return { ...base, lines, ocrEngine: settings.ocr.name };
  }
  const scale = textLayer ? image.width / textLayer.width : 1;
  const images = useTextLayer ? (textLayer?.images ?? []).map((region) => scaleBox(region, scale)) : [];
  let lines: TextLine[];
  let usedOcr = true;
  if (useTextLayer && textLayer) {
    const textLines = textLayer.lines.map((line) => scaleLine(line, scale));
    const pictureLines = await ocrPictures(ocrImage, images, settings);
    const fresh = pictureLines.filter(
      (line) => !textLines.some((text) => overlapShare(line, text) > DUPLICATE_OVERLAP),
    );
    usedOcr = fresh.length > 0;
    lines = [...textLines, ...fresh];
  } else {
    lines = await settings.ocr.recognize(ocrImage, settings.languages);
  }
  const vectorRules = useTextLayer ? (textLayer?.rules ?? []).map((rule) => scaleBox(rule, scale)) : [];
  const rules: Rule[] = [...detection.rules, ...vectorRules];
  const regions = settings.layout ? await settings.layout.analyse({ image, lines, rules }) : [];
  return {
    ...base,
    lines,
    rules,
    images,
    regions,
    ocrEngine: usedOcr ? settings.ocr.name : undefined,
    layoutModel: settings.layout?.name,
  };
}

async function ocrPictures(
  image: RgbaImage,
  pictures: readonly ImageRegion[],
  settings: PageAnalysisSettings,
): Promise<TextLine[]> {
  const pageArea = image.width * image.height;
  const lines: TextLine[] = [];
  for (const picture of pictures) {
    const box = roundBox(picture, image);
    const width = box.x1 - box.x0;
    const height = box.y1 - box.y0;
    if (
      width < MIN_PICTURE_SIDE ||
      height < MIN_PICTURE_SIDE ||
      width * height < pageArea * MIN_PICTURE_SHARE
    )
      continue;
    const found = await settings.ocr.recognize(cropImage(image, box), settings.languages);
    for (const line of found) {
      lines.push({
        ...line,
        x0: line.x0 + box.x0,
        x1: line.x1 + box.x0,
        y0: line.y0 + box.y0,
        y1: line.y1 + box.y0,
      });
    }
  }
  return lines;
}

function scaleBox<T extends Box>(box: T, scale: number): T {
  return { ...box, x0: box.x0 * scale, y0: box.y0 * scale, x1: box.x1 * scale, y1: box.y1 * scale };
}

function scaleLine(line: TextLine, scale: number): TextLine {
  const scaled = scaleBox(line, scale);
  return line.fontSize === undefined ? scaled : { ...scaled, fontSize: line.fontSize * scale };
}

function roundBox(box: Box, image: RgbaImage): Box {
  return {
    x0: Math.max(0, Math.floor(box.x0)),
    y0: Math.max(0, Math.floor(box.y0)),
    x1: Math.min(image.width, Math.ceil(box.x1)),
    y1: Math.min(image.height, Math.ceil(box.y1)),
  };
}

/** Copy a rectangle of pixels (integer box inside the image) into a new image. */
export function cropImage(image: RgbaImage, box: Box): RgbaImage {
  const width = box.x1 - box.x0;
  const height = box.y1 - box.y0;
  const data = new Uint8Array(width * height * 4);
  for (let row = 0; row < height; row++) {
    const start = ((box.y0 + row) * image.width + box.x0) * 4;
    data.set(image.data.subarray(start, start + width * 4), row * width * 4);
  }
  return { data, width, height };
}
