/**
 * The shared input of page layout analysis. A PDF text layer and OCR both produce `PageInput`s, and one
 * layout module turns them into elements ("one layout module, two inputs"). Coordinates are in the page's
 * own units with the origin at the TOP-LEFT and y growing downwards, whatever the source.
 */

export type CoordinateSystemName = 'PointSpace' | 'PixelSpace';

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A run of text on one baseline (a word group or a whole line, depending on the source). */
export interface TextLine extends Box {
  text: string;
  /** Font size in page units, when known (text layer); OCR estimates it from the line height. */
  fontSize?: number;
  bold?: boolean;
  italic?: boolean;
  fontName?: string;
  /** OCR confidence 0..1; absent for text-layer lines. */
  confidence?: number;
  /** Where the text came from. */
  origin: 'text_layer' | 'ocr' | 'vlm';
  /** The text runs up or down the page (rotated 90°), like the arXiv stamp in a margin. */
  vertical?: boolean;
  /** For vertical text: whether it reads downwards (turned clockwise) or upwards. */
  verticalFlow?: 'down' | 'up';
}

/** A straight ruling line (table borders, separators). */
export interface Rule extends Box {}

/** A picture region on the page. */
export interface ImageRegion extends Box {
  /** Encoded image bytes when extraction was requested. */
  data?: Uint8Array;
  mimeType?: string;
}

/** DocLayNet classes, the labels layout models (YOLOX-style) predict. */
export type LayoutLabel =
  | 'Caption'
  | 'Footnote'
  | 'Formula'
  | 'List-item'
  | 'Page-footer'
  | 'Page-header'
  | 'Picture'
  | 'Section-header'
  | 'Table'
  | 'Text'
  | 'Title';

/** A region found by layout analysis (a model or the built-in analyser), guiding classification. */
export interface LayoutRegion extends Box {
  label: LayoutLabel;
  /** Detection confidence 0..1 (metadata.detection_class_prob). */
  probability: number;
}

export interface PageInput {
  /** 1-based page number within the document (before starting_page_number offsets). */
  pageNumber: number;
  width: number;
  height: number;
  system: CoordinateSystemName;
  lines: TextLine[];
  rules?: Rule[];
  images?: ImageRegion[];
  /** Layout regions from hi_res analysis; absent for the fast strategy. */
  regions?: LayoutRegion[];
}
