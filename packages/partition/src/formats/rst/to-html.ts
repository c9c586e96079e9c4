import { escapeHtml } from '../../elements/table-html.js';
import { type LinkTargets, normaliseRefName, rstInlineToHtml } from './inline.js';
import { GRID_BORDER, readGridTable, readSimpleTable, SIMPLE_BORDER, tableHtml } from './tables.js';

/**
 * reStructuredText → HTML, the subset documents use: section titles (underlined, optionally overlined;
 * levels in order of first appearance, as docutils assigns them), paragraphs, bullet and enumerated
 * lists (nested by indentation), definition and field lists, literal blocks (`::`), doctest blocks,
 * block quotes, line blocks, transitions, grid and simple tables, and the directives that carry content
 * (code, image, figure, admonitions, table, csv-table, list-table). `.. include::` is never followed:
 * a document cannot make the service read files. Other directives and comments are skipped.
 *
 * No maintained JavaScript parser for RST exists (docutils is Python), hence this one.
 */

interface State {
  targets: LinkTargets;
  /** Title adornment styles in order of first use; the index is the section depth. */
  titleStyles: string[];
}

/** Indentation nests block quotes and lists; past this depth text is read flat (hostile input). */
const MAX_DEPTH = 40;
const ADORNMENT = /^([!-/:-@[-`{-~])\1+\s*$/;
const BULLET = /^([-*+•‣⁃])(\s+|$)/;
const ENUMERATOR =
  /^(?:\(?(?:\d+|[a-zA-Z]|[ivxlcdmIVXLCDM]+|#)\)|(?:\d+|[a-zA-Z]|[ivxlcdmIVXLCDM]+|#)\.)(\s+|$)/;
const DIRECTIVE = /^\.\.\s+([\w:.+-]+)::(?:\s+(.*))?$/;
const TARGET = /^\.\.\s+_([^:]+|`[^`]+`):\s*(\S*)\s*$/;
const FIELD = /^:([^:\s][^:]*):(?:\s+(.*))?$/;

export function rstToHtml(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  const state: State = { targets: collectTargets(lines), titleStyles: [] };
  return parseBlocks(lines, state, 0);
}

function collectTargets(lines: string[]): Map<string, string> {
  const targets = new Map<string, string>();
  for (const line of lines) {
    const match = TARGET.exec(line.trim());
    if (match?.[2]) targets.set(normaliseRefName(match[1]!.replace(/^`|`$/g, '')), match[2]);
  }
  return targets;
}

const isBlank = (line: string | undefined) => line === undefined || line.trim() === '';
const indentOf = (line: string) => line.length - line.trimStart().length;

/** Lines from `start` that are blank or indented at least `indent`, dedented by `indent`. */
function indentedBlock(lines: string[], start: number, indent: number): { body: string[]; next: number } {
  let end = start;
  while (end < lines.length && (isBlank(lines[end]) || indentOf(lines[end]!) >= indent)) end++;
  while (end > start && isBlank(lines[end - 1])) end--;
  return { body: lines.slice(start, end).map((line) => line.slice(indent)), next: end };
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((line) => !isBlank(line)).map(indentOf);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(common));
}

function parseBlocks(lines: string[], state: State, depth: number): string {
  const out: string[] = [];
  const inline = (text: string) => rstInlineToHtml(text, state.targets);
  let literalNext = false;
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (isBlank(line)) {
      index++;
      continue;
    }
    const indent = indentOf(line);
    if (indent > 0) {
      const { body, next } = indentedBlock(lines, index, indent);
      if (literalNext) out.push(`<pre><code>${escapeHtml(body.join('\n'))}</code></pre>`);
      else if (depth >= MAX_DEPTH) out.push(`<p>${inline(body.join(' '))}</p>`);
      else out.push(`<blockquote>${parseBlocks(body, state, depth + 1)}</blockquote>`);
      literalNext = false;
      index = next;
      continue;
    }
    literalNext = false;
    const next = lines[index + 1];
    const afterNext = lines[index + 2];

    // Section title with overline: ====\nTitle\n====
    if (
      ADORNMENT.test(line) &&
      next !== undefined &&
      !isBlank(next) &&
      afterNext?.trimEnd() === line.trimEnd()
    ) {
      out.push(title(next.trim(), `over${line[0]}`, state, inline));
      index += 3;
      continue;
    }
    // Section title with underline: Title\n-----
    if (
      !ADORNMENT.test(line) &&
      next !== undefined &&
      ADORNMENT.test(next) &&
      !SIMPLE_BORDER.test(line) &&
      next.trim().length >= Math.min(3, line.trim().length)
    ) {
      out.push(title(line.trim(), `under${next[0]}`, state, inline));
      index += 2;
      continue;
    }
    if (GRID_BORDER.test(line)) {
      const { table, next: after } = readGridTable(lines, index);
      out.push(tableHtml(table, state.targets));
      index = after;
      continue;
    }
    if (SIMPLE_BORDER.test(line)) {
      const { table, next: after } = readSimpleTable(lines, index);
      out.push(tableHtml(table, state.targets));
      index = after;
      continue;
    }
    // Transition: a lone line of 4+ punctuation characters.
    if (ADORNMENT.test(line) && line.trim().length >= 4) {
      out.push('<hr>');
      index++;
      continue;
    }
    if (/^\.\.(\s|$)/.test(line)) {
      const { html, next: after } = directive(lines, index, state, depth);
      out.push(html);
      index = after;
      continue;
    }
    const list = BULLET.exec(line)
      ? 'ul'
      : ENUMERATOR.exec(line) && !isBlank(line.replace(ENUMERATOR, ''))
        ? 'ol'
        : undefined;
    if (list) {
      const { html, next: after } = listBlock(lines, index, list, state, depth);
      out.push(html);
      index = after;
      continue;
    }
    const field = FIELD.exec(line);
    if (field) {
      const { body, next: after } = indentedBlock(lines, index + 1, 1);
      const value = [field[2] ?? '', ...body].join(' ').trim();
      out.push(`<p>${inline(`${field[1]}: ${value}`)}</p>`);
      index = after;
      continue;
    }
    if (/^\|(\s|$)/.test(line)) {
      let end = index;
      while (end < lines.length && /^\|(\s|$)/.test(lines[end]!)) end++;
      out.push(
        `<p>${lines
          .slice(index, end)
          .map((l) => inline(l.slice(1).trim()))
          .join('<br>')}</p>`,
      );
      index = end;
      continue;
    }
    if (line.startsWith('>>>')) {
      let end = index;
      while (end < lines.length && !isBlank(lines[end])) end++;
      out.push(`<pre><code>${escapeHtml(lines.slice(index, end).join('\n'))}</code></pre>`);
      index = end;
      continue;
    }
    // Definition list: a term line directly followed by an indented definition.
    if (next !== undefined && !isBlank(next) && indentOf(next) > 0 && depth < MAX_DEPTH) {
      const { body, next: after } = indentedBlock(lines, index + 1, indentOf(next));
      out.push(`<dl><dt>${inline(line.trim())}</dt><dd>${parseBlocks(body, state, depth + 1)}</dd></dl>`);
      index = after;
      continue;
    }
    // Paragraph: up to a blank line or an indented line.
    let end = index + 1;
    while (end < lines.length && !isBlank(lines[end]) && indentOf(lines[end]!) === 0) end++;
    let text = lines.slice(index, end).join(' ').trim();
    if (text.endsWith('::')) {
      literalNext = true;
      text = text === '::' ? '' : text.replace(/\s*::$/, text.endsWith(' ::') ? '' : ':');
    }
    if (text !== '') out.push(`<p>${inline(text)}</p>`);
    index = end;
  }
  return out.join('\n');
}

function title(text: string, style: string, state: State, inline: (text: string) => string): string {
  let level = state.titleStyles.indexOf(style);
  if (level === -1) {
    state.titleStyles.push(style);
    level = state.titleStyles.length - 1;
  }
  const tag = `h${Math.min(level + 1, 6)}`;
  return `<${tag}>${inline(text)}</${tag}>`;
}

function listBlock(
  lines: string[],
  start: number,
  kind: 'ul' | 'ol',
  state: State,
  depth: number,
): { html: string; next: number } {
  const marker = kind === 'ul' ? BULLET : ENUMERATOR;
  const items: string[] = [];
  let index = start;
  while (index < lines.length) {
    const line = lines[index]!;
    const match = marker.exec(line);
    if (!match) break;
    const width = match[0].length || 2;
    const { body, next } = indentedBlock(lines, index + 1, width);
    const itemLines = [line.slice(match[0].length), ...body];
    items.push(
      depth >= MAX_DEPTH
        ? `<li>${rstInlineToHtml(itemLines.join(' '), state.targets)}</li>`
        : `<li>${parseBlocks(itemLines, state, depth + 1)}</li>`,
    );
    index = next;
    while (index < lines.length && isBlank(lines[index])) index++;
  }
  return { html: `<${kind}>${items.join('')}</${kind}>`, next: index };
}

const ADMONITIONS = new Set([
  'note',
  'warning',
  'tip',
  'important',
  'caution',
  'danger',
  'error',
  'hint',
  'attention',
  'admonition',
  'seealso',
  'topic',
  'sidebar',
  'epigraph',
  'highlights',
  'pull-quote',
  'container',
  'compound',
  'rubric',
]);

/** Options (`:name: value`) at the top of a directive body, and the content after them. */
function splitOptions(body: string[]): { options: Map<string, string>; content: string[] } {
  const options = new Map<string, string>();
  let index = 0;
  for (; index < body.length; index++) {
    const match = FIELD.exec(body[index]!.trim());
    if (!match || isBlank(body[index])) break;
    options.set(match[1]!.toLowerCase(), (match[2] ?? '').trim());
  }
  return { options, content: body.slice(index) };
}

function directive(
  lines: string[],
  start: number,
  state: State,
  depth: number,
): { html: string; next: number } {
  const head = lines[start]!.trim();
  // An empty comment followed by a blank line ends the construct before it and takes no body (docutils).
  if (head === '..' && isBlank(lines[start + 1])) return { html: '', next: start + 1 };
  const { body: rawBody, next } = indentedBlock(lines, start + 1, 1);
  const body = dedent(rawBody);
  const match = DIRECTIVE.exec(head);
  if (!match) {
    // Comments, targets and substitution definitions are not content; footnotes and citations are.
    const footnote = /^\.\.\s+\[[^\]]+\]\s+(.*)$/.exec(head);
    const text = footnote ? [footnote[1], ...body].join(' ').trim() : '';
    return { html: text ? `<p>${rstInlineToHtml(text, state.targets)}</p>` : '', next };
  }
  const name = match[1]!.toLowerCase();
  const argument = (match[2] ?? '').trim();
  const { options, content } = splitOptions(body);
  const nested = () => (depth < MAX_DEPTH ? parseBlocks(dedent(content), state, depth + 1) : '');
  switch (name) {
    case 'code':
    case 'code-block':
    case 'sourcecode':
    case 'literalinclude': {
      if (name === 'literalinclude') return { html: '', next };
      const code = dedent(content)
        .join('\n')
        .replace(/^\n+|\s+$/g, '');
      return { html: code ? `<pre><code>${escapeHtml(code)}</code></pre>` : '', next };
    }
    case 'image':
    case 'figure': {
      const image = `<img src="${escapeHtml(argument)}" alt="${escapeHtml(options.get('alt') ?? '')}">`;
      if (name === 'image') return { html: `<p>${image}</p>`, next };
      const caption =
        dedent(content)
          .join('\n')
          .trim()
          .split(/\n\s*\n/)[0] ?? '';
      return {
        html: `<figure>${image}${caption ? `<figcaption>${rstInlineToHtml(caption.replace(/\s+/g, ' '), state.targets)}</figcaption>` : ''}</figure>`,
        next,
      };
    }
    case 'table':
      return {
        html: (argument ? `<p>${rstInlineToHtml(argument, state.targets)}</p>` : '') + nested(),
        next,
      };
    case 'list-table':
      return {
        html: tableHtml(listTable(content, Number(options.get('header-rows') ?? 0)), state.targets, argument),
        next,
      };
    case 'csv-table': {
      const header = options.has('header') ? [csvCells(options.get('header')!)] : [];
      const rows = [
        ...header,
        ...dedent(content)
          .filter((line) => !isBlank(line))
          .map(csvCells),
      ];
      const table = {
        rows: rows.map((row) => row.map((text) => ({ text, colspan: 1 }))),
        headerRows: header.length,
      };
      return { html: tableHtml(table, state.targets, argument), next };
    }
    case 'raw':
      return { html: argument.toLowerCase() === 'html' ? content.join('\n') : '', next };
    default:
      if (!ADMONITIONS.has(name)) return { html: '', next };
      return {
        html: `<div>${argument ? `<p>${rstInlineToHtml(argument, state.targets)}</p>` : ''}${nested()}</div>`,
        next,
      };
  }
}

/** `* - a\n  - b` rows of cells. */
function listTable(content: string[], headerRows: number) {
  const rows: { text: string; colspan: number }[][] = [];
  for (const line of dedent(content)) {
    const row = /^[*-]\s+[*-]\s+(.*)$/.exec(line);
    const cell = /^\s+[*-]\s+(.*)$/.exec(line);
    if (row) rows.push([{ text: row[1]!.trim(), colspan: 1 }]);
    else if (cell && rows.length > 0) rows.at(-1)!.push({ text: cell[1]!.trim(), colspan: 1 });
    else if (!isBlank(line) && rows.length > 0) {
      const last = rows.at(-1)!.at(-1)!;
      last.text = `${last.text} ${line.trim()}`.trim();
    }
  }
  return { rows, headerRows: Math.min(headerRows, Math.max(0, rows.length - 1)) };
}

/** One line of CSV with double-quoted fields. */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  for (const match of line.matchAll(/\s*(?:"((?:[^"]|"")*)"|([^,]*))\s*(?:,|$)/g)) {
    if (match[0] === '' && match.index >= line.length) break;
    cells.push((match[1]?.replace(/""/g, '"') ?? match[2] ?? '').trim());
  }
  return cells;
}
