import { decodeText, isValidUtf8 } from '../text/decode.js';
import { type FileTypeInfo, fileTypeById } from './file-types.js';

/**
 * Telling the text formats apart from their content. Strong signals (markup, e-mail headers, JSON, RTF)
 * beat any extension; weak ones (Markdown, reStructuredText, Org, delimited columns) only decide when the
 * name says nothing useful, because a .txt file full of commas is still a text file to its owner.
 */

/** Ids of types whose content is text: a name with one of these extensions is believed. */
export const TEXT_TYPE_IDS: ReadonlySet<string> = new Set([
  'txt',
  'md',
  'rst',
  'org',
  'csv',
  'tsv',
  'json',
  'ndjson',
  'html',
  'xml',
  'eml',
  'rtf',
  'yaml',
  'xsl',
]);

/** How much text is decoded to decide; enough for headers, a few paragraphs or table rows. */
const SAMPLE_BYTES = 64 * 1024;

/** An RFC 5322 header field: a name of printable characters without spaces, a colon, a value. */
const HEADER_FIELD = /^[!-9;-~]+:/;
/** Fields that only e-mail has; one of them must be present. */
const CORE_EMAIL_HEADER =
  /^(from|to|subject|message-id|received|mime-version|return-path|delivered-to|date):/i;

export function sniffText(
  data: Uint8Array,
  byExtension: FileTypeInfo | undefined,
  encoding?: string,
): FileTypeInfo {
  const whole = data.length <= SAMPLE_BYTES;
  const sample = decodeSample(headOf(data), encoding);
  const head = sample.trimStart().slice(0, 4096).toLowerCase();
  // A text extension other than .txt is believed (a README.md may begin with <h1>, a .md with "From:");
  // only markup is looked at, to tell HTML, XML and XSLT apart.
  if (byExtension && TEXT_TYPE_IDS.has(byExtension.id) && byExtension.id !== 'txt') {
    const markup = ['html', 'xml', 'xsl'].includes(byExtension.id) && head.startsWith('<');
    return markup ? sniffMarkup(head, byExtension) : byExtension;
  }
  const strong = strongSignal(head, sample, whole, data, encoding);
  if (strong) return strong;
  if (byExtension?.id === 'txt') return byExtension;
  return weakSignal(sample) ?? fileTypeById('txt');
}

/**
 * The bytes decoded in the caller's encoding when it can read them, else as detection finds them: a
 * wrong `encoding` is reported by the format's partitioner, not by detection.
 */
function decodeSample(data: Uint8Array, encoding: string | undefined): string {
  let text: string | undefined;
  if (encoding) {
    try {
      text = decodeText(data, encoding).text;
    } catch {
      // unknown name or undecodable bytes: detect
    }
  }
  return (text ?? decodeText(data).text).replace(/^\uFEFF/, '');
}

/** The first SAMPLE_BYTES, cut back to a UTF-8 character boundary when the text is UTF-8 up to there. */
function headOf(data: Uint8Array): Uint8Array {
  if (data.length <= SAMPLE_BYTES) return data;
  let end = SAMPLE_BYTES;
  // Back over continuation bytes (10xxxxxx) and the lead byte that starts the cut character.
  while (end > SAMPLE_BYTES - 4 && (data[end]! & 0xc0) === 0x80) end--;
  const cut = data.subarray(0, end);
  return isValidUtf8(cut) ? cut : data.subarray(0, SAMPLE_BYTES);
}

function strongSignal(
  head: string,
  sample: string,
  whole: boolean,
  data: Uint8Array,
  encoding: string | undefined,
): FileTypeInfo | undefined {
  if (head.startsWith('<')) return sniffMarkup(head, undefined);
  if (head.startsWith('{\\rtf')) return fileTypeById('rtf');
  if (head.startsWith('{') || head.startsWith('[')) {
    const json = sniffJson(sample, whole, data, encoding);
    if (json) return json;
  }
  if (looksLikeEmail(sample)) return fileTypeById('eml');
  return undefined;
}

function sniffMarkup(head: string, byExtension: FileTypeInfo | undefined): FileTypeInfo {
  const root = head.replace(/^<\?xml[^>]*>\s*/, '').replace(/^(?:<!--[\s\S]*?-->\s*)+/, '');
  if (/^<xsl:(?:stylesheet|transform)[\s>]/.test(root)) return fileTypeById('xsl');
  if (/^<!doctype html|^<html[\s>]/.test(root)) return fileTypeById('html');
  if (head.startsWith('<?xml')) {
    if (/^<!doctype\s+html|^<html[\s>]/.test(root)) return fileTypeById('html');
    return byExtension?.id === 'html' ? byExtension : fileTypeById('xml');
  }
  if (/<(body|div|p|table|head|span|h[1-6]|ul|ol|br|meta|title|a)[\s>/]/.test(head))
    return fileTypeById('html');
  if (byExtension && (byExtension.id === 'html' || byExtension.id === 'xml')) return byExtension;
  return fileTypeById('xml');
}

/** JSON when the text parses; NDJSON when its first lines are each a JSON object. */
function sniffJson(
  sample: string,
  whole: boolean,
  data: Uint8Array,
  encoding: string | undefined,
): FileTypeInfo | undefined {
  if (whole && parses(sample)) return fileTypeById('json');
  const lines = sample.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (!whole) lines.pop(); // the last line of a sample may be cut
  const objectLines = lines.slice(0, 50);
  if (objectLines.length > 1 && objectLines.every(isJsonObjectLine)) return fileTypeById('ndjson');
  // A large document: parse it whole only when its start is not a line of its own.
  if (!whole && parses(decodeSample(data, encoding))) return fileTypeById('json');
  return undefined;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isJsonObjectLine(line: string): boolean {
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object';
  } catch {
    return false;
  }
}

/**
 * An e-mail begins with a block of header fields (continuation lines indented) before the first blank
 * line: at least two of them e-mail's own (From, To, Subject, Received...), or MIME-Version with a
 * Content-Type (a bare MIME entity such as an S/MIME signed message).
 */
export function looksLikeEmail(sample: string): boolean {
  const headerBlock = sample.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const lines = headerBlock.split(/\r?\n/).filter((line) => !/^[ \t]/.test(line) && line !== '');
  if (lines.length < 2) return false;
  const core = lines.filter((line) => CORE_EMAIL_HEADER.test(line)).length;
  const mime =
    lines.some((line) => /^mime-version:/i.test(line)) && lines.some((line) => /^content-type:/i.test(line));
  return (core >= 2 || mime) && lines.every((line) => HEADER_FIELD.test(line) || /^From /.test(line));
}

/** Markdown, reStructuredText, Org or delimited columns, from how lines begin; undefined for plain text. */
function weakSignal(sample: string): FileTypeInfo | undefined {
  const lines = sample.split(/\r?\n/).slice(0, 400);
  const count = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
  const org = count(/^#\+(?:title|author|begin_\w+|options|startup):/i) + count(/^\*+ \S/) / 2;
  if (count(/^#\+\w+:/) >= 1 && org >= 1.5) return fileTypeById('org');
  const rstUnderlines = lines.filter(
    (line, index) =>
      /^([=\-~^"'`#*+])\1{2,}\s*$/.test(line) &&
      index > 0 &&
      (lines[index - 1] ?? '').trim().length > 0 &&
      Math.abs(line.trim().length - (lines[index - 1] ?? '').trim().length) <= 2,
  ).length;
  const rstDirectives = count(/^\.\. [\w-]+::/);
  if (rstDirectives >= 1 || rstUnderlines >= 2) return fileTypeById('rst');
  const markdown =
    // A heading followed by a blank line; "# comment" lines of scripts are followed by code.
    lines.filter((line, index) => /^#{1,6} \S/.test(line) && (lines[index + 1] ?? '').trim() === '').length *
      2 +
    count(/^#{2,6} \S/) * 3 +
    count(/^```/) +
    count(/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/) * 3 +
    count(/\]\([^)\s]+\)/) +
    count(/^\s{0,3}[-*+] \S/) / 4;
  if (markdown >= 3) return fileTypeById('md');
  return sniffDelimited(lines);
}

/** CSV or TSV: at least three lines, nearly all with the same number (≥ 1) of one delimiter. */
function sniffDelimited(lines: string[]): FileTypeInfo | undefined {
  const rows = lines.filter((line) => line.trim() !== '');
  if (rows.length < 3) return undefined;
  for (const [delimiter, id] of [
    ['\t', 'tsv'],
    [',', 'csv'],
    [';', 'csv'],
    ['|', 'csv'],
  ] as const) {
    const counts = rows.map((row) => row.replace(/"[^"]*"/g, '""').split(delimiter).length - 1);
    const first = counts[0]!;
    if (first >= 1 && counts.filter((count) => count === first).length >= rows.length * 0.9)
      return fileTypeById(id);
  }
  return undefined;
}
