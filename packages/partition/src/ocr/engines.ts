import type { OcrAgent } from '../options/partition-options.js';
import type { OcrEngine } from './types.js';

/**
 * One engine per OCR agent per thread, created on first use and reused for every page after. Module
 * state is per thread in Node (each worker thread loads its own copy), so pool workers never share an
 * engine; this map is the only mutable state of the OCR code.
 */
const engines = new Map<OcrAgent, Promise<OcrEngine>>();

export function getOcrEngine(agent: OcrAgent): Promise<OcrEngine> {
  let engine = engines.get(agent);
  if (!engine) {
    engine = createEngine(agent);
    engines.set(agent, engine);
    engine.catch(() => engines.delete(agent));
  }
  return engine;
}

async function createEngine(agent: OcrAgent): Promise<OcrEngine> {
  switch (agent) {
    case 'ppocr': {
      const { PpOcrEngine } = await import('./ppocr/engine.js');
      return new PpOcrEngine();
    }
    case 'tesseract': {
      const { TesseractEngine } = await import('./tesseract/engine.js');
      return new TesseractEngine();
    }
  }
}

/** Free every engine of this thread (models, tesseract workers). Call on shutdown; safe to call twice. */
export async function closeOcrEngines(): Promise<void> {
  const all = [...engines.values()];
  engines.clear();
  await Promise.all(all.map(async (engine) => (await engine.catch(() => undefined))?.close()));
}
