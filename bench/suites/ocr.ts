import { loadavg } from 'node:os';
import { closeOcrEngines, getOcrEngine, OCR_AGENTS, resolveOcrLanguages } from '@docsvc/partition';
import type { InferenceSession } from 'onnxruntime-node';
import { textScore } from '../../eval/metrics.js';
import { detectText } from '../../packages/partition/src/ocr/ppocr/detector.js';
import { loadPpOcrModels } from '../../packages/partition/src/ocr/ppocr/models.js';
import { recognizeBoxes } from '../../packages/partition/src/ocr/ppocr/recognizer.js';
import { proseA4Page } from '../../packages/partition/src/ocr/test-support/sample-pages.js';
import { degrade, drawPage } from '../../packages/partition/src/ocr/test-support/text-image.js';
import type { RgbaImage } from '../../packages/partition/src/ocr/types.js';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, peakRssMiB } from '../lib.js';

/**
 * OCR cost per A4 page at 200 DPI, per engine: CPU seconds (user + system of all threads, so tesseract's
 * worker thread counts) with ONNX Runtime limited to one thread, i.e. seconds per page per core; wall
 * seconds; character accuracy against the known text. Pages: a dense prose page (37 lines, 11 pt),
 * clean, noisy (blur, noise, JPEG) and skewed (2.5°). Each page is read RUNS times after a warm-up that
 * loads the models; the table gives the median and, separately, the first run (tesseract's WebAssembly
 * is compiled to optimised code only once it is hot). Then PP-OCR's time on the clean page by stage.
 */
const DPI = 200;
const RUNS = 3;

const cpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export const suite: BenchSuite = {
  name: 'bench-ocr',
  title: 'OCR seconds per page',
  async run() {
    process.env.DOCSVC_ONNX_THREADS = '1';
    const loadAtStart = loadavg()[0]!.toFixed(1);
    const sample = proseA4Page(DPI);
    const clean = await drawPage(sample.drawing);
    const pages = {
      clean,
      noisy: await degrade(clean, { noise: 40, blur: 0.8, jpegQuality: 50 }),
      skewed: await degrade(clean, { skewDegrees: 2.5, noise: 20, jpegQuality: 70 }),
    };
    const expected = sample.lines.join('\n');
    const rows: (string | number)[][] = [];
    const starts: string[] = [];
    const peakRss: string[] = [];
    for (const agent of OCR_AGENTS) {
      const engine = await getOcrEngine(agent);
      const languages = resolveOcrLanguages(agent, ['eng']);
      // Warm-up: model loading and worker start are per thread, not per page.
      const startCpu = cpuSeconds();
      await engine.recognize(
        await drawPage({ width: 400, height: 80, blocks: [{ text: 'warm up', x: 10, y: 50, fontSize: 30 }] }),
        languages,
      );
      starts.push(`${agent} ${(cpuSeconds() - startCpu).toFixed(2)}`);
      for (const [variant, image] of Object.entries(pages)) {
        const cpu: number[] = [];
        const wall: number[] = [];
        let accuracy = 0;
        let lineCount = 0;
        for (let run = 0; run < RUNS; run++) {
          const cpuBefore = cpuSeconds();
          const start = performance.now();
          const lines = await engine.recognize(image, languages);
          wall.push((performance.now() - start) / 1000);
          cpu.push(cpuSeconds() - cpuBefore);
          accuracy = textScore(expected, lines.map((line) => line.text).join('\n'));
          lineCount = lines.length;
        }
        rows.push([
          agent,
          variant,
          median(cpu).toFixed(2),
          cpu[0]!.toFixed(2),
          median(wall).toFixed(2),
          accuracy.toFixed(4),
          lineCount,
        ]);
      }
      peakRss.push(`${peakRssMiB().toFixed(0)} MiB after ${agent}`);
    }
    await closeOcrEngines();
    const stages = await ppOcrStages(clean);
    const load = loadavg()[0]!.toFixed(1);
    return [
      `${machineLine()}; A4 pages of ${clean.width}×${clean.height} px (${DPI} DPI), ${sample.lines.length} text lines (~${expected.length} characters) each; ONNX Runtime on 1 thread; ${RUNS} runs per page. 1-minute load average ${loadAtStart} at the start and ${load} at the end (other work shares the 2 cores, so wall times are inflated and CPU times vary by ±15 % between runs; CPU seconds are the per-core cost). Engine start (model loading, first call), CPU s: ${starts.join(', ')}. Peak RSS of the bench process: ${peakRss.join(', ')} (both engines loaded).`,
      markdownTable(
        [
          'engine',
          'page',
          'CPU s/page (median)',
          'CPU s, first run',
          'wall s/page (median)',
          'char accuracy',
          'lines',
        ],
        rows,
      ),
      `PP-OCR on the clean page by stage (CPU seconds, median of ${RUNS}):`,
      markdownTable(
        ['stage', 'CPU s'],
        stages.map(([stage, seconds]) => [stage, seconds.toFixed(2)]),
      ),
    ].join('\n\n');
  },
};

/** PP-OCR's stages, timed by calling the engine's parts directly with the model calls wrapped. */
async function ppOcrStages(image: RgbaImage): Promise<[string, number][]> {
  const models = await loadPpOcrModels();
  const timed = (session: InferenceSession, spent: { seconds: number }) => ({
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    run: async (feeds: InferenceSession.FeedsType) => {
      const before = cpuSeconds();
      const result = await session.run(feeds);
      spent.seconds += cpuSeconds() - before;
      return result;
    },
  });
  const runs: number[][] = [];
  for (let run = 0; run < RUNS; run++) {
    const detectionModel = { seconds: 0 };
    const recognitionModel = { seconds: 0 };
    let before = cpuSeconds();
    const boxes = await detectText(
      timed(models.detection, detectionModel) as unknown as InferenceSession,
      models.ort,
      image,
    );
    const detection = cpuSeconds() - before;
    before = cpuSeconds();
    await recognizeBoxes(
      timed(models.recognition, recognitionModel) as unknown as InferenceSession,
      models.ort,
      models.alphabet,
      image,
      boxes,
    );
    const recognition = cpuSeconds() - before;
    runs.push([
      detectionModel.seconds,
      detection - detectionModel.seconds,
      recognitionModel.seconds,
      recognition - recognitionModel.seconds,
      detection + recognition,
    ]);
  }
  await Promise.all([models.detection.release(), models.recognition.release()]);
  const labels = [
    'detection model (1280 px long side)',
    'detection: resize, normalise, boxes from the probability map',
    'recognition model (37 lines, one call each)',
    'recognition: line crops, CTC decoding, word gaps',
    'total',
  ];
  return labels.map((label, index) => [label, median(runs.map((values) => values[index]!))]);
}
