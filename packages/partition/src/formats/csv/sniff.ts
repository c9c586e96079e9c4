import Papa from 'papaparse';

/**
 * Guessing the shape of delimited text: which delimiter it uses and how many leading rows are headers.
 * Papa Parse has its own delimiter guess, but it falls back to a comma when nothing fits, which splits
 * single-column files of prose ("Lorem, ipsum") into bogus columns. Ours says "no delimiter" instead.
 */

/** Candidates in order of preference when two fit equally well. */
export const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'] as const;

/** Rows read to judge a delimiter: enough to see a pattern, few enough to stay instant on huge files. */
const SNIFF_ROWS = 200;
/** Characters read to judge a delimiter (cut at a line end). */
const SNIFF_CHARS = 64 * 1024;
/** A delimiter qualifies when at least this share of the sampled rows have its most common field count. */
const MIN_CONSISTENCY = 0.5;

interface Candidate {
  delimiter: string;
  /** The most common number of fields per row. */
  fields: number;
  /** Share of rows that have exactly that many fields. */
  consistency: number;
}

function judge(sample: string, delimiter: string): Candidate {
  const rows = Papa.parse<string[]>(sample, { delimiter, preview: SNIFF_ROWS, skipEmptyLines: true }).data;
  const counts = new Map<number, number>();
  for (const row of rows) counts.set(row.length, (counts.get(row.length) ?? 0) + 1);
  let fields = 0;
  let most = 0;
  for (const [count, occurrences] of counts) {
    if (occurrences > most || (occurrences === most && count > fields)) {
      fields = count;
      most = occurrences;
    }
  }
  return { delimiter, fields, consistency: rows.length === 0 ? 0 : most / rows.length };
}

/**
 * The delimiter that splits the sample into the most consistent number (≥ 2) of fields per row, or
 * undefined when none does (a single-column file).
 */
export function sniffDelimiter(text: string): string | undefined {
  let sample = text.length > SNIFF_CHARS ? text.slice(0, SNIFF_CHARS) : text;
  const lastBreak = sample.lastIndexOf('\n');
  if (text.length > SNIFF_CHARS && lastBreak > 0) sample = sample.slice(0, lastBreak);
  let best: Candidate | undefined;
  for (const delimiter of CANDIDATE_DELIMITERS) {
    if (!sample.includes(delimiter)) continue;
    const candidate = judge(sample, delimiter);
    if (candidate.fields < 2 || candidate.consistency < MIN_CONSISTENCY) continue;
    if (
      !best ||
      candidate.consistency > best.consistency ||
      (candidate.consistency === best.consistency && candidate.fields > best.fields)
    ) {
      best = candidate;
    }
  }
  return best?.delimiter;
}

const NUMBER = /^[-+]?[$€£¥]?\s*[-+]?(?:\d[\d,. ']*)?\d(?:[.,]\d+)?\s*%?$/u;

function isNumberCell(cell: string): boolean {
  return NUMBER.test(cell.trim());
}

function filled(row: readonly string[]): number {
  return row.filter((cell) => cell.trim() !== '').length;
}

/** Most header rows we ever recognise (a title row, a group row, the column names). */
const MAX_HEADER_ROWS = 3;

/**
 * How many leading rows are header rows. A row of labels (no number in it) is a header; when that row is
 * sparse (at most half its cells filled, like a title "Stanley Cups,," or a group row), the next row may
 * be one too. A row with a number in it is data, and at least one data row always remains.
 */
export function countHeaderRows(rows: readonly (readonly string[])[]): number {
  const width = rows.reduce((widest, row) => Math.max(widest, row.length), 0);
  let headers = 0;
  while (headers < Math.min(MAX_HEADER_ROWS, rows.length - 1)) {
    const row = rows[headers]!;
    const count = filled(row);
    if (count === 0 || row.some((cell) => cell.trim() !== '' && isNumberCell(cell))) break;
    headers++;
    if (width < 2 || count > width / 2) break; // a full row of labels: the column names; stop here
  }
  return headers;
}
