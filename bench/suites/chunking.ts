import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  type ChunkingOptionsInput,
  chunk,
  type Element,
  type ElementMetadata,
  type ElementType,
  hashElementId,
  type TextEmbedder,
  tableToHtml,
  tableToText,
} from '@docsvc/partition';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, peakRssMiB } from '../lib.js';

/** Size of the generated document. */
const ELEMENT_COUNT = 100_000;
const MAX_CHARACTERS = 500;

/** Small deterministic PRNG (mulberry32), so every run chunks the same document. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = (
  'the report shows revenue growth across all regions while costs remained stable and the board ' +
  'approved a new plan for research development hiring training safety compliance audit market ' +
  'customer product service quality delivery schedule budget forecast risk contract supplier'
).split(' ');

/**
 * A long document shaped like partition output: a header and a footer per page, titles, prose of
 * varied length (about one paragraph in eight is longer than max_characters), list items, page breaks
 * and tables (some larger than max_characters), with the metadata partition sets.
 */
export function generateElements(count: number, seed = 42): Element[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const sentence = (): string => {
    const words = Array.from({ length: 6 + Math.floor(next() * 14) }, () => pick(VOCABULARY));
    return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
  };
  const paragraph = (sentences: number): string => Array.from({ length: sentences }, sentence).join(' ');
  const elements: Element[] = [];
  let page = 1;
  const add = (type: ElementType, text: string, extra: ElementMetadata = {}): void => {
    const metadata: ElementMetadata = {
      filename: 'generated.pdf',
      filetype: 'application/pdf',
      languages: ['eng'],
      ...(type === 'PageBreak' ? {} : { page_number: page }),
      ...extra,
    };
    elements.push({ type, element_id: hashElementId(`${elements.length}${text}`), text, metadata });
  };
  while (elements.length < count) {
    const roll = next();
    if (elements.length % 25 === 0) {
      if (page > 1 || elements.length > 0) add('PageBreak', '');
      page++;
      add('Header', 'Annual report 2025', { header_footer_type: 'primary' });
    } else if (roll < 0.1) add('Title', sentence().slice(0, 60), { category_depth: 1 });
    else if (roll < 0.7) {
      const long = next() < 0.125;
      add('NarrativeText', paragraph(long ? 8 + Math.floor(next() * 10) : 1 + Math.floor(next() * 4)), {
        emphasized_text_contents: ['revenue'],
        emphasized_text_tags: ['b'],
      });
    } else if (roll < 0.9) add('ListItem', sentence());
    else if (roll < 0.92) {
      const rows = Array.from({ length: 3 + Math.floor(next() * 40) }, () =>
        Array.from({ length: 4 }, () => pick(VOCABULARY)),
      );
      add('Table', tableToText(rows), { text_as_html: tableToHtml(rows, { headerRows: 1 }) });
    } else add('Footer', `Page ${page}`);
  }
  return elements.slice(0, count);
}

/**
 * Stand-in for an embedding model: hashed bag of words, 64 dimensions. It makes by_similarity's own cost
 * (embedding bookkeeping, cosine tests, grouping) measurable; a real model's speed is measured by the
 * embedding suite.
 */
const hashedBagOfWords: TextEmbedder = {
  async embed(texts) {
    return texts.map((text) => {
      const vector = new Array<number>(64).fill(0);
      for (const word of text.toLowerCase().split(/\W+/)) {
        if (!word) continue;
        let hash = 0;
        for (let i = 0; i < word.length; i++) hash = (hash * 31 + word.charCodeAt(i)) | 0;
        vector[Math.abs(hash) % 64]! += 1;
      }
      return vector;
    });
  },
};

const STRATEGIES = ['basic', 'by_title', 'by_page', 'by_similarity'] as const;

/**
 * Median wall-clock and CPU time (user + system) of `runs` runs. The machine is shared, so wall time
 * depends on the other work running; CPU time of this single-threaded work is the steadier figure.
 */
async function measure(fn: () => Promise<unknown>, runs: number): Promise<{ wallMs: number; cpuMs: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const startCpu = process.cpuUsage();
    const start = performance.now();
    await fn();
    wall.push(performance.now() - start);
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

export const suite: BenchSuite = {
  name: 'bench-chunking',
  title: 'Chunking throughput',
  async run() {
    const load = loadavg()[0]!;
    const elements = generateElements(ELEMENT_COUNT);
    const characters = elements.reduce((sum, element) => sum + element.text.length, 0);
    const rows: (string | number)[][] = [];
    for (const strategy of STRATEGIES) {
      for (const include_orig_elements of [true, false]) {
        const options: ChunkingOptionsInput = {
          chunking_strategy: strategy,
          max_characters: MAX_CHARACTERS,
          include_orig_elements,
        };
        let chunks = 0;
        const run = async () => {
          chunks = (await chunk(elements, options, { embedder: hashedBagOfWords })).length;
        };
        // -- one warm-up run for the whole suite lets the JIT settle --
        if (rows.length === 0) await run();
        const { wallMs, cpuMs } = await measure(run, 3);
        rows.push([
          strategy,
          include_orig_elements ? 'yes' : 'no',
          chunks,
          Math.round(cpuMs),
          Math.round(ELEMENT_COUNT / (cpuMs / 1000)).toLocaleString('en-US'),
          (characters / 1e6 / (cpuMs / 1000)).toFixed(1),
          Math.round(wallMs),
        ]);
      }
    }
    return [
      `${machineLine()}; ${ELEMENT_COUNT.toLocaleString('en-US')} generated elements (${(characters / 1e6).toFixed(1)} M characters: prose, titles, list items, headers/footers, page breaks, tables), max_characters ${MAX_CHARACTERS}, median of 3 runs (rates from CPU time, user + system); peak RSS ${peakRssMiB().toFixed(0)} MiB; 1-minute load average ${load.toFixed(1)} at the start (the machine is shared).`,
      'by_similarity uses a hashed bag-of-words stand-in for the embedding model, so its row is the cost of the strategy itself, not of a model.',
      '',
      markdownTable(
        ['strategy', 'orig_elements', 'chunks', 'CPU ms', 'elements/s (CPU)', 'M chars/s (CPU)', 'wall ms'],
        rows,
      ),
    ].join('\n');
  },
};
