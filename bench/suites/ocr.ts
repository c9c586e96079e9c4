import { loadavg } from 'node:os';
import { closeOcrEngines, getOcrEngine, OCR_AGENTS, resolveOcrLanguages } from '@docsvc/partition';
import { textScore } from '../../eval/metrics.js';
import { proseA4Page } from '../../packages/partition/src/ocr/test-support/sample-pages.js';
import { degrade, drawPage } from '../../packages/partition/src/ocr/test-support/text-image.js';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, peakRssMiB } from '../lib.js';

/**
 * OCR cost per A4 page at 200 DPI, per engine: CPU seconds (user + system of all threads, so tesseract's
 * worker thread counts) with ONNX Runtime limited to one thread, i.e. seconds per page per core; wall
 * seconds; character accuracy against the known text. Pages: a dense prose page (37 lines, 11 pt),
 * clean, noisy (blur, noise, JPEG) and skewed (2.5°).
 */
const DPI = 200;

export const suite: BenchSuite = {
  name: 'bench-ocr',
  title: 'OCR seconds per page',
  async run() {
    process.env.DOCSVC_ONNX_THREADS = '1';
    const sample = proseA4Page(DPI);
    const clean = await drawPage(sample.drawing);
    const pages = {
      clean,
      noisy: await degrade(clean, { noise: 40, blur: 0.8, jpegQuality: 50 }),
      skewed: await degrade(clean, { skewDegrees: 2.5, noise: 20, jpegQuality: 70 }),
    };
    const expected = sample.lines.join('\n');
    const rows: (string | number)[][] = [];
    for (const agent of OCR_AGENTS) {
      const engine = await getOcrEngine(agent);
      const languages = resolveOcrLanguages(agent, ['eng']);
      // Warm-up: model loading and worker start are per thread, not per page.
      await engine.recognize(
        await drawPage({ width: 400, height: 80, blocks: [{ text: 'warm up', x: 10, y: 50, fontSize: 30 }] }),
        languages,
      );
      for (const [variant, image] of Object.entries(pages)) {
        const cpuBefore = process.cpuUsage();
        const start = performance.now();
        const lines = await engine.recognize(image, languages);
        const wall = (performance.now() - start) / 1000;
        const cpu = process.cpuUsage(cpuBefore);
        const accuracy = textScore(expected, lines.map((line) => line.text).join('\n'));
        rows.push([
          agent,
          variant,
          ((cpu.user + cpu.system) / 1e6).toFixed(2),
          wall.toFixed(2),
          accuracy.toFixed(4),
          lines.length,
        ]);
      }
    }
    await closeOcrEngines();
    const load = loadavg()[0]!.toFixed(1);
    return `${machineLine()}; A4 pages of ${clean.width}×${clean.height} px (${DPI} DPI), ${sample.lines.length} text lines each; ONNX Runtime on 1 thread; 1-minute load average at the end ${load} (other work shares the 2 cores, so wall times are inflated; CPU seconds are the per-core cost); peak RSS ${peakRssMiB().toFixed(0)} MiB.\n\n${markdownTable(['engine', 'page', 'CPU s/page', 'wall s/page', 'char accuracy', 'lines'], rows)}`;
  },
};
