import { readFile, stat } from 'node:fs/promises';
import { ServiceError } from '../errors.js';
import type { LayoutRegion, Rule, TextLine } from '../layout/types.js';
import type { RgbaImage } from '../ocr/types.js';
import { analyseLayout, BUILTIN_LAYOUT_MODEL } from './builtin-analyser.js';
import { loadYoloxModel, type YoloxModel } from './yolox.js';

/** What a layout analyser sees of a page: pixels, text segments and rules, all in pixel space. */
export interface LayoutPage {
  image: RgbaImage;
  lines: readonly TextLine[];
  rules: readonly Rule[];
}

/** A named, versioned layout analyser (`hi_res_model_name`), recorded in metadata.detection_origin. */
export interface LayoutAnalyser {
  readonly name: string;
  analyse(page: LayoutPage): Promise<LayoutRegion[]>;
}

const builtin: LayoutAnalyser = {
  name: BUILTIN_LAYOUT_MODEL,
  async analyse(page) {
    return analyseLayout({
      width: page.image.width,
      height: page.image.height,
      lines: page.lines,
      rules: page.rules,
    });
  },
};

/** Loaded user models, per thread, keyed by path and modification time (a replaced file reloads). */
const userModels = new Map<string, Promise<YoloxModel>>();

/**
 * `hi_res_model_name` → analyser: nothing or "docsvc-layout-v1" is the built-in one; anything else must
 * be the path of a readable ONNX layout model file (docs/ocr.md), or it is `unknown_model`.
 */
export async function resolveLayoutAnalyser(name: string | undefined): Promise<LayoutAnalyser> {
  const trimmed = name?.trim();
  if (!trimmed || trimmed === BUILTIN_LAYOUT_MODEL) return builtin;
  const info = await stat(trimmed).catch(() => undefined);
  if (!info?.isFile()) throw new ServiceError('unknown_model', `Unknown model type: ${trimmed}`);
  const key = `${trimmed}\u0000${info.mtimeMs}`;
  let model = userModels.get(key);
  if (!model) {
    model = readFile(trimmed).then((bytes) => loadYoloxModel(trimmed, new Uint8Array(bytes)));
    userModels.set(key, model);
    model.catch(() => userModels.delete(key));
  }
  const loaded = await model;
  return { name: loaded.name, analyse: (page) => loaded.detect(page.image) };
}
