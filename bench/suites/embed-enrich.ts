import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { extname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createEmbeddingProviderFromOptions,
  type Element,
  enrichElements,
  partition,
} from '@docsvc/partition';
import { startOpenAiServer } from '../../packages/partition/src/test-support/provider-servers/openai.js';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, peakRssMiB } from '../lib.js';
import { SAMPLES_DIR } from './formats.js';

/**
 * Local embedding throughput (texts/s), local entity extraction throughput (elements/s), and the cost of
 * the provider plumbing (batching, concurrency, JSON) against a local OpenAI-format server.
 * Texts are the elements of the sample text documents when ../shared/samples is present, otherwise a
 * generated set of English sentences with names, dates and amounts.
 */
const TEXT_LIMIT = 300;

async function benchTexts(): Promise<{ texts: string[]; source: string }> {
  if (existsSync(SAMPLES_DIR)) {
    const texts: string[] = [];
    for (const name of readdirSync(SAMPLES_DIR).sort()) {
      if (!['.txt', '.md', '.html', '.eml'].includes(extname(name).toLowerCase())) continue;
      try {
        const elements = await partition({ data: readFileSync(join(SAMPLES_DIR, name)), filename: name });
        for (const element of elements) if (element.text.trim().length >= 20) texts.push(element.text);
      } catch {
        // a sample its format cannot read yet is simply not part of the set
      }
      if (texts.length >= TEXT_LIMIT) break;
    }
    if (texts.length >= 50)
      return {
        texts: texts.slice(0, TEXT_LIMIT),
        source: 'elements of the sample txt/md/html/eml documents',
      };
  }
  const subjects = ['Jane Doe', 'Acme Corp', 'The Ministry of Finance', 'Dr. Sarah Connor', 'Toyota'];
  const verbs = [
    'opened an office in',
    'signed an agreement with',
    'reported revenue of $4.2 million in',
    'visited',
  ];
  const objects = ['Berlin', 'Microsoft', 'the World Health Organization', 'Texas', 'Paris on March 3, 2021'];
  const texts = Array.from({ length: TEXT_LIMIT }, (_, i) => {
    const sentence = `${subjects[i % 5]} ${verbs[i % 4]} ${objects[(i * 3) % 5]}.`;
    return `${sentence} Growth reached ${i % 40}% over the quarter, according to the annual report. ${sentence}`;
  });
  return { texts, source: 'generated sentences (samples absent)' };
}

/**
 * Wall-clock and CPU time of one run. Both are reported: on a shared 2-core machine the wall clock
 * depends on what else runs, while CPU seconds of this process measure the work itself.
 */
async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number; cpuSeconds: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const result = await fn();
  const used = process.cpuUsage(cpu);
  return { result, seconds: (performance.now() - start) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

/** Median run of `count`, by wall clock. */
async function medianRun<T>(count: number, fn: () => Promise<T>) {
  const runs = [];
  for (let i = 0; i < count; i++) runs.push(await timed(fn));
  runs.sort((a, b) => a.seconds - b.seconds);
  return runs[Math.floor(count / 2)]!;
}

export const suite: BenchSuite = {
  name: 'bench-embed-enrich',
  title: 'Embeddings and entity extraction',
  async run() {
    const { texts, source } = await benchTexts();
    const meanChars = Math.round(texts.reduce((sum, t) => sum + t.length, 0) / texts.length);
    const rows: (string | number)[][] = [];

    // Local embeddings: load once (counted separately), then the median of 3 runs over all texts.
    const local = createEmbeddingProviderFromOptions({ embedding_provider: 'local' }, { env: {} });
    const load = await timed(() => local.embed(['warm up']));
    const embedRun = await medianRun(3, () => local.embed(texts));
    await local.close();
    rows.push([
      'local embeddings (USE lite, 512-d, TF.js wasm)',
      texts.length,
      (texts.length / embedRun.seconds).toFixed(1),
      (texts.length / embedRun.cpuSeconds).toFixed(1),
      'texts',
      `first call incl. model load ${load.seconds.toFixed(2)} s`,
    ]);

    // A user-supplied ONNX sentence-transformer, when one is given (see docs/embeddings.md for building
    // an all-MiniLM-L6-v2 folder from registry packages): DOCSVC_EMBEDDING_MODEL_PATH=<folder>.
    const onnxFolder = process.env.DOCSVC_EMBEDDING_MODEL_PATH;
    if (onnxFolder) {
      const onnx = createEmbeddingProviderFromOptions(
        { embedding_provider: 'local', embedding_model_path: onnxFolder },
        { env: {} },
      );
      const onnxLoad = await timed(() => onnx.embed(['warm up']));
      const onnxRun = await medianRun(3, () => onnx.embed(texts));
      const size = await onnx.dimension();
      await onnx.close();
      rows.push([
        `local embeddings (ONNX folder ${onnx.model}, ${size}-d, onnxruntime-node)`,
        texts.length,
        (texts.length / onnxRun.seconds).toFixed(1),
        (texts.length / onnxRun.cpuSeconds).toFixed(1),
        'texts',
        `first call incl. model load ${onnxLoad.seconds.toFixed(2)} s`,
      ]);
    }

    // Local entity extraction: per element, through the public step.
    const elements: Element[] = texts.map((text, i) => ({
      type: 'NarrativeText',
      element_id: String(i),
      text,
      metadata: {},
    }));
    // Warm up: the NLP libraries load on first use.
    await enrichElements(elements.slice(0, 1), { entity_extraction: 'local' });
    const nerRun = await medianRun(3, () => enrichElements(elements, { entity_extraction: 'local' }));
    const found = nerRun.result.reduce((sum, e) => sum + (e.metadata.entities?.items.length ?? 0), 0);
    const related = nerRun.result.reduce(
      (sum, e) => sum + (e.metadata.entities?.relationships.length ?? 0),
      0,
    );
    rows.push([
      'local entity extraction (wink-nlp + compromise)',
      elements.length,
      (elements.length / nerRun.seconds).toFixed(1),
      (elements.length / nerRun.cpuSeconds).toFixed(1),
      'elements',
      `${(found / elements.length).toFixed(2)} entities and ${(related / elements.length).toFixed(2)} relationships per element`,
    ]);

    // Provider plumbing against a local server: what the client adds on top of the provider's own time.
    const server = await startOpenAiServer({ apiKey: 'bench-key' });
    try {
      const remote = createEmbeddingProviderFromOptions(
        {
          embedding_provider: 'openai',
          embedding_api_key: 'bench-key',
          embedding_base_url: `${server.url}/v1`,
          embedding_batch_size: 32,
          embedding_max_concurrency: 4,
        },
        { env: {} },
      );
      const many = Array.from({ length: 4 }, () => texts).flat();
      await remote.embed(many.slice(0, 32));
      const { seconds, cpuSeconds } = await timed(() => remote.embed(many));
      rows.push([
        'openai client → local server (1536-d, batch 32, 4 in flight)',
        many.length,
        (many.length / seconds).toFixed(0),
        (many.length / cpuSeconds).toFixed(0),
        'texts',
        'client and fake server share this process',
      ]);
    } finally {
      await server.close();
    }

    return `${machineLine()}; ${texts.length} texts (${source}), mean ${meanChars} characters; median of 3 runs; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores at the end; peak RSS ${peakRssMiB().toFixed(0)} MiB.\n\n${markdownTable(['step', 'items', 'per second', 'per CPU-second', 'unit', 'note'], rows)}`;
  },
};
