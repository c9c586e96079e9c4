import type { Link } from '../../elements/metadata.js';

/**
 * The text of one block being assembled from inline content, with whitespace collapsed the way a
 * browser renders it, plus the links and emphasised runs inside it with their offsets in the final text.
 * Spans (links, emphasis) are opened and closed by the walker; a span still open when the block ends is
 * cut there and continues in the next block.
 */

/** Spans nested deeper than this are not tracked; each block end visits every open span. */
const MAX_OPEN_SPANS = 32;

export interface Emphasis {
  text: string;
  tag: string;
}

export interface InlineBlock {
  text: string;
  links: Link[];
  emphasis: Emphasis[];
}

interface OpenSpan {
  kind: 'link' | 'emphasis';
  /** href for links, tag name (b, i) for emphasis. */
  value: string;
  start: number;
}

export class InlineBuffer {
  private text = '';
  /** A space is owed before the next visible character (collapsed whitespace). */
  private pendingSpace = false;
  private links: Link[] = [];
  private emphasis: Emphasis[] = [];
  private open: OpenSpan[] = [];
  /** Consecutive <br> count since the last visible character (two in a row end a paragraph). */
  breaks = 0;

  isEmpty(): boolean {
    return this.text === '';
  }

  append(raw: string): void {
    if (raw === '') return;
    let chunk = raw.replace(/\s+/g, ' ');
    if (chunk.startsWith(' ')) {
      if (this.text !== '') this.pendingSpace = true;
      chunk = chunk.slice(1);
    }
    if (chunk === '') return;
    const trailingSpace = chunk.endsWith(' ');
    if (trailingSpace) chunk = chunk.slice(0, -1);
    if (this.pendingSpace) this.text += ' ';
    this.text += chunk;
    this.pendingSpace = trailingSpace;
    this.breaks = 0;
  }

  /** A line break inside a block renders as a space in the element text. */
  lineBreak(): void {
    if (this.text !== '') this.pendingSpace = true;
    this.breaks++;
  }

  /** Returns false (and tracks nothing) past MAX_OPEN_SPANS: <b> nested thousands deep is not emphasis. */
  openSpan(kind: OpenSpan['kind'], value: string): boolean {
    if (this.open.length >= MAX_OPEN_SPANS) return false;
    this.open.push({ kind, value, start: this.text.length });
    return true;
  }

  closeSpan(kind: OpenSpan['kind']): void {
    for (let index = this.open.length - 1; index >= 0; index--) {
      if (this.open[index]!.kind !== kind) continue;
      const [span] = this.open.splice(index, 1);
      this.record(span!);
      return;
    }
  }

  private record(span: OpenSpan): void {
    const raw = this.text.slice(span.start);
    const text = raw.trim();
    if (text === '') return;
    if (span.kind === 'link') {
      const start = span.start + (raw.length - raw.trimStart().length);
      this.links.push({ text, url: span.value, start_index: start });
    } else {
      this.emphasis.push({ text, tag: span.value });
    }
  }

  /** End the block: return its content and start an empty one (open spans continue into it). */
  take(): InlineBlock {
    for (const span of this.open) this.record(span);
    const block: InlineBlock = { text: this.text, links: this.links, emphasis: this.emphasis };
    this.text = '';
    this.pendingSpace = false;
    this.links = [];
    this.emphasis = [];
    this.breaks = 0;
    for (const span of this.open) span.start = 0;
    return block;
  }
}

/**
 * Short paragraphs look like headings to the text heuristics far more often than they are ones (labels,
 * lead-ins ending in a colon). In HTML a paragraph is taken as a Title only when the markup agrees:
 * the whole paragraph is bold, the way word processors and SEC filings write their headings.
 */
export function isBoldThroughout(block: InlineBlock): boolean {
  return block.emphasis.some((run) => run.tag === 'b' && run.text === block.text);
}
