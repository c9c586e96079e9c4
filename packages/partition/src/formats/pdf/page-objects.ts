import type { Box, Rule } from '../../layout/types.js';
import { type PageSpace, rectToDisplay } from './page-space.js';
import type { Pdfium } from './pdfium.js';

/**
 * Ruling lines and picture regions of a page, from its drawing objects (vector paths, images), walked
 * through form XObjects with their matrices. Boxes are in display space.
 */

/** FPDF_PAGEOBJ_* (fpdf_edit.h). */
const OBJECT_PATH = 2;
const OBJECT_IMAGE = 3;
const OBJECT_FORM = 5;
/** FPDF_SEGMENT_* */
const SEGMENT_LINETO = 0;
const SEGMENT_MOVETO = 2;

/** A line thinner than this (points) counts as a rule; thicker filled shapes are panels, not lines. */
const MAX_RULE_THICKNESS = 3;
/** Shorter strokes are glyph-like marks (bullets, underlines of single letters), not rules. */
const MIN_RULE_LENGTH = 6;
/** Pages drawn with more path segments than this are charts or maps; their rules are not collected. */
const MAX_SEGMENTS_PER_PAGE = 50_000;
/** Form XObjects nest at most this deep (guards against reference cycles in broken files). */
const MAX_FORM_DEPTH = 8;

export interface PageImage extends Box {
  /** PDFium handle of the image object, valid while its page is loaded. */
  handle: number;
}

export interface PageObjects {
  rules: Rule[];
  images: PageImage[];
}

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  // m then n (row-vector convention used by PDF: [x y 1] × M).
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];
}

export function readPageObjects(pdfium: Pdfium, page: number, space: PageSpace): PageObjects {
  const x = pdfium.exports;
  const scratch = x.malloc(64);
  const result: PageObjects = { rules: [], images: [] };
  const budget = { segments: MAX_SEGMENTS_PER_PAGE };
  try {
    const count = x.FPDFPage_CountObjects(page);
    for (let index = 0; index < count; index++) {
      visit(pdfium, x.FPDFPage_GetObject(page, index), IDENTITY, 0, space, scratch, result, budget);
    }
  } finally {
    x.free(scratch);
  }
  return result;
}

function visit(
  pdfium: Pdfium,
  object: number,
  parent: Matrix,
  depth: number,
  space: PageSpace,
  scratch: number,
  result: PageObjects,
  budget: { segments: number },
): void {
  if (!object) return;
  const x = pdfium.exports;
  const type = x.FPDFPageObj_GetType(object);
  if (type === OBJECT_FORM) {
    if (depth >= MAX_FORM_DEPTH) return;
    const own = readMatrix(pdfium, object, scratch);
    const matrix = multiply(own, parent);
    const children = x.FPDFFormObj_CountObjects(object);
    for (let index = 0; index < children; index++) {
      visit(
        pdfium,
        x.FPDFFormObj_GetObject(object, index),
        matrix,
        depth + 1,
        space,
        scratch,
        result,
        budget,
      );
    }
    return;
  }
  if (type === OBJECT_IMAGE) {
    const box = objectBox(pdfium, object, parent, space, scratch);
    if (box) result.images.push({ ...box, handle: object });
    return;
  }
  if (type === OBJECT_PATH && budget.segments > 0)
    readRules(pdfium, object, parent, space, scratch, result, budget);
}

function readMatrix(pdfium: Pdfium, object: number, scratch: number): Matrix {
  if (!pdfium.exports.FPDFPageObj_GetMatrix(object, scratch)) return IDENTITY;
  const f32 = pdfium.heapF32();
  const base = scratch >> 2;
  return [f32[base]!, f32[base + 1]!, f32[base + 2]!, f32[base + 3]!, f32[base + 4]!, f32[base + 5]!];
}

/** The object's bounds (in its parent form's space) mapped through the parent matrix to display space. */
function objectBox(pdfium: Pdfium, object: number, parent: Matrix, space: PageSpace, scratch: number) {
  if (!pdfium.exports.FPDFPageObj_GetBounds(object, scratch, scratch + 4, scratch + 8, scratch + 12)) {
    return undefined;
  }
  const f32 = pdfium.heapF32();
  const base = scratch >> 2;
  const [left, bottom, right, top] = [f32[base]!, f32[base + 1]!, f32[base + 2]!, f32[base + 3]!];
  const corners = [
    apply(parent, left, bottom),
    apply(parent, right, top),
    apply(parent, left, top),
    apply(parent, right, bottom),
  ];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return rectToDisplay(space, Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
}

/**
 * Axis-aligned straight segments of stroked paths become rules; so do thin filled rectangles (many
 * producers draw table borders as filled bars). Curves and diagonal lines are ignored.
 */
function readRules(
  pdfium: Pdfium,
  path: number,
  parent: Matrix,
  space: PageSpace,
  scratch: number,
  result: PageObjects,
  budget: { segments: number },
): void {
  const x = pdfium.exports;
  if (!x.FPDFPath_GetDrawMode(path, scratch, scratch + 4)) return;
  const i32 = pdfium.heapI32();
  const fillMode = i32[scratch >> 2]!;
  const stroked = i32[(scratch + 4) >> 2]! !== 0;
  if (fillMode === 0 && !stroked) return;
  const box = objectBox(pdfium, path, parent, space, scratch);
  if (!box) return;
  const width = box.x1 - box.x0;
  const height = box.y1 - box.y0;
  if (Math.max(width, height) < MIN_RULE_LENGTH) return;
  if (Math.min(width, height) <= MAX_RULE_THICKNESS) {
    // The whole path is one thin bar or line.
    result.rules.push(box);
    return;
  }
  if (!stroked) return;
  const matrix = multiply(readMatrix(pdfium, path, scratch), parent);
  const segments = x.FPDFPath_CountSegments(path);
  budget.segments -= segments;
  if (budget.segments < 0) return;
  let start: [number, number] | undefined;
  let previous: [number, number] | undefined;
  for (let index = 0; index < segments; index++) {
    const segment = x.FPDFPath_GetPathSegment(path, index);
    if (!segment || !x.FPDFPathSegment_GetPoint(segment, scratch, scratch + 4)) continue;
    const f32 = pdfium.heapF32();
    const point = space.toDisplay(...apply(matrix, f32[scratch >> 2]!, f32[(scratch + 4) >> 2]!));
    const type = x.FPDFPathSegment_GetType(segment);
    if (type === SEGMENT_MOVETO) {
      start = point;
    } else if (type === SEGMENT_LINETO && previous) {
      addSegmentRule(result.rules, previous, point);
    }
    if (x.FPDFPathSegment_GetClose(segment) && start) addSegmentRule(result.rules, point, start);
    previous = point;
  }
}

function addSegmentRule(rules: Rule[], a: [number, number], b: [number, number]): void {
  const dx = Math.abs(a[0] - b[0]);
  const dy = Math.abs(a[1] - b[1]);
  if (Math.max(dx, dy) < MIN_RULE_LENGTH || Math.min(dx, dy) > 1) return;
  rules.push({
    x0: Math.min(a[0], b[0]),
    y0: Math.min(a[1], b[1]),
    x1: Math.max(a[0], b[0]),
    y1: Math.max(a[1], b[1]),
  });
}
