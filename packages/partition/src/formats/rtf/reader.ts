import iconv from 'iconv-lite';
import type { Link } from '../../elements/metadata.js';
import { type RtfToken, tokenizeRtf } from './tokenizer.js';

/**
 * Interprets RTF tokens into blocks: paragraphs (with heading level, list level, bold/italic spans and
 * hyperlinks), tables (from \cell and \row), page breaks, and the text of headers and footers.
 * Destinations that hold no document text (font and colour tables, style sheet, pictures, field
 * instructions, document info, any `\*` destination we do not know) are skipped.
 */

export interface RtfParagraph {
  kind: 'paragraph';
  text: string;
  headingDepth: number | undefined;
  listDepth: number | undefined;
  emphasis: { text: string; tag: 'b' | 'i' }[];
  links: Link[];
  allBold: boolean;
}

export type RtfBlock =
  | RtfParagraph
  | { kind: 'table'; rows: string[][] }
  | { kind: 'pageBreak' }
  | { kind: 'header' | 'footer'; text: string };

interface GroupState {
  skip: boolean;
  bold: boolean;
  italic: boolean;
  /** Characters to skip after \uN (the ANSI fallback), set by \ucN. */
  unicodeSkip: number;
  /** Where this group's text goes: the body, a header/footer, a style-sheet entry or a field. */
  target: 'body' | 'header' | 'footer' | 'style' | 'fieldInstruction' | 'listText';
  /** This group is a \field; its end closes the hyperlink it may hold. */
  isField: boolean;
}

/** Destinations whose content is not document text. */
const SKIPPED_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'info',
  'pict',
  'object',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'mmathPr',
  'pgdsctbl',
  'bkmkstart',
  'bkmkend',
  'footnote',
  'annotation',
  'atnid',
  'atnauthor',
  'revtbl',
  'filetbl',
  'shpinst',
  'nonshppict',
  'blipuid',
  'userprops',
  'docvar',
  'xe',
  'tc',
  'template',
  'fchars',
  'lchars',
  'pn',
  'protusertbl',
  'wgrffmtfilter',
  'passwordhash',
  'panose',
  'falt',
]);
const HEADERS = new Set(['header', 'headerl', 'headerr', 'headerf']);
const FOOTERS = new Set(['footer', 'footerl', 'footerr', 'footerf']);
const SPECIAL_CHARACTERS: Record<string, string> = {
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  emspace: '\u2003',
  enspace: '\u2002',
  qmspace: '\u2005',
  tab: '\t',
  line: '\n',
};
const HEADING_STYLE = /^heading\s*([1-9])$/i;

export function readRtf(data: Uint8Array): RtfBlock[] {
  return new RtfReader().read(data);
}

class RtfReader {
  private readonly blocks: RtfBlock[] = [];
  private stack: GroupState[] = [];
  private state: GroupState = {
    skip: false,
    bold: false,
    italic: false,
    unicodeSkip: 1,
    target: 'body',
    isField: false,
  };
  private codePage = 'windows-1252';
  private pendingBytes: number[] = [];
  private skipFallback = 0;
  private destinationNext = false;

  // paragraph being built
  private text = '';
  private emphasis: RtfParagraph['emphasis'] = [];
  private links: Link[] = [];
  private boldChars = 0;
  private visibleChars = 0;
  private styleIndex = 0;
  private outlineLevel: number | undefined;
  private listLevel: number | undefined;
  private inTable = false;
  private inList = false;
  private hasListText = false;
  // table being built
  private cellParts: string[] = [];
  private row: string[] = [];
  private rows: string[][] = [];
  // side buffers
  private sideText = '';
  private styleNames = new Map<number, string>();
  private styleText = '';
  private styleNumber = 0;
  private fieldInstruction = '';
  private fieldStack: { url: string | undefined; start: number }[] = [];

  read(data: Uint8Array): RtfBlock[] {
    for (const token of tokenizeRtf(data)) this.handle(token);
    this.flushBytes();
    this.endParagraph();
    this.flushTable();
    return this.blocks;
  }

  private handle(token: RtfToken): void {
    if (token.kind !== 'byte') this.flushBytes();
    switch (token.kind) {
      case 'groupStart':
        this.stack.push(this.state);
        this.state = { ...this.state, isField: false };
        this.destinationNext = true;
        return;
      case 'groupEnd':
        this.endGroup();
        return;
      case 'word':
        this.word(token.name, token.param);
        this.destinationNext = false;
        return;
      case 'symbol':
        this.symbol(token.char);
        return;
      case 'byte':
        this.destinationNext = false;
        if (this.skipFallback > 0) this.skipFallback--;
        else this.pendingBytes.push(token.value);
        return;
      case 'text':
        this.destinationNext = false;
        this.appendText(this.consumeFallback(token.text));
        return;
    }
  }

  private endGroup(): void {
    const ending = this.state;
    this.state = this.stack.pop() ?? this.state;
    if (ending.target === 'style') {
      const name = this.styleText.replace(/;\s*$/, '').trim();
      if (name) this.styleNames.set(this.styleNumber, name);
      this.styleText = '';
      this.styleNumber = 0;
    } else if (
      (ending.target === 'header' || ending.target === 'footer') &&
      this.state.target !== ending.target
    ) {
      const text = this.sideText.trim();
      if (text) this.blocks.push({ kind: ending.target, text });
      this.sideText = '';
    } else if (ending.target === 'fieldInstruction' && this.state.target !== 'fieldInstruction') {
      const hyperlink = /HYPERLINK\s+"([^"]+)"/.exec(this.fieldInstruction);
      this.fieldStack.push({ url: hyperlink?.[1], start: this.text.length });
      this.fieldInstruction = '';
    } else if (ending.target === 'listText' && this.state.target !== 'listText') {
      this.hasListText = true;
    }
    if (ending.isField) this.closeFields();
  }

  /** Skip the ANSI fallback characters that follow a \uN escape. */
  private consumeFallback(text: string): string {
    if (this.skipFallback === 0) return text;
    const skipped = Math.min(this.skipFallback, text.length);
    this.skipFallback -= skipped;
    return text.slice(skipped);
  }

  private flushBytes(): void {
    if (this.pendingBytes.length === 0) return;
    const bytes = Buffer.from(this.pendingBytes);
    this.pendingBytes = [];
    const encoding = iconv.encodingExists(this.codePage) ? this.codePage : 'windows-1252';
    this.appendText(iconv.decode(bytes, encoding));
  }

  private appendText(text: string): void {
    if (text === '' || this.state.skip) return;
    switch (this.state.target) {
      case 'style':
        this.styleText += text;
        return;
      case 'header':
      case 'footer':
        this.sideText += text;
        return;
      case 'fieldInstruction':
        this.fieldInstruction += text;
        return;
      case 'listText':
        return;
      default:
        break;
    }
    this.text += text;
    const visible = text.replace(/\s/g, '').length;
    this.visibleChars += visible;
    if (this.state.bold) this.boldChars += visible;
    const trimmed = text.trim();
    if (trimmed) {
      this.extendEmphasis('b', this.state.bold, trimmed);
      this.extendEmphasis('i', this.state.italic, trimmed);
    }
  }

  /** Consecutive text in the same emphasis forms one span. */
  private lastEmphasisEnd: Record<'b' | 'i', number> = { b: -1, i: -1 };
  private extendEmphasis(tag: 'b' | 'i', on: boolean, text: string): void {
    if (!on) {
      this.lastEmphasisEnd[tag] = -1;
      return;
    }
    const last = this.emphasis.findLastIndex((e) => e.tag === tag);
    if (last >= 0 && this.lastEmphasisEnd[tag] === last) this.emphasis[last]!.text += ` ${text}`;
    else {
      this.emphasis.push({ text, tag });
      this.lastEmphasisEnd[tag] = this.emphasis.length - 1;
    }
  }

  private symbol(char: string): void {
    if (char === '*') {
      // \* marks a destination that readers may ignore when they do not know it.
      if (this.destinationNext) this.state.skip = true;
      return;
    }
    this.destinationNext = false;
    if (char === '~') this.appendText('\u00a0');
    else if (char === '_') this.appendText('\u2011');
    else if (char === '\\' || char === '{' || char === '}') this.appendText(char);
  }

  private word(name: string, param: number | undefined): void {
    const destination = this.destinationNext;
    if (destination && this.destinationWord(name)) return;
    const special = SPECIAL_CHARACTERS[name];
    if (special !== undefined) {
      this.appendText(special);
      return;
    }
    switch (name) {
      case 'ansicpg':
        if (param) this.codePage = param === 10000 ? 'macintosh' : `windows-${param}`;
        if (param && (param === 932 || param === 936 || param === 949 || param === 950))
          this.codePage = `cp${param}`;
        return;
      case 'mac':
        this.codePage = 'macintosh';
        return;
      case 'u': {
        if (param === undefined) return;
        const code = param < 0 ? param + 65536 : param;
        this.appendText(String.fromCharCode(code));
        this.skipFallback = this.state.unicodeSkip;
        return;
      }
      case 'uc':
        this.state.unicodeSkip = param ?? 1;
        return;
      case 'b':
        this.state.bold = param !== 0;
        return;
      case 'i':
        this.state.italic = param !== 0;
        return;
      case 'plain':
        this.state.bold = false;
        this.state.italic = false;
        return;
      case 'par':
        if (this.state.target === 'header' || this.state.target === 'footer') this.sideText += '\n';
        else if (this.state.target === 'body') this.endParagraph();
        return;
      case 'pard':
        this.styleIndex = 0;
        this.outlineLevel = undefined;
        this.listLevel = undefined;
        this.inList = false;
        this.inTable = false;
        return;
      case 's':
        if (this.state.target === 'style') this.styleNumber = param ?? 0;
        else this.styleIndex = param ?? 0;
        return;
      case 'outlinelevel':
        this.outlineLevel = param;
        return;
      case 'ls':
        // \ls0 means "no list"; \ilvl alone (written on every paragraph by some tools) means nothing.
        this.inList = (param ?? 0) > 0;
        return;
      case 'ilvl':
        this.listLevel = param ?? 0;
        return;
      case 'intbl':
        this.inTable = true;
        return;
      case 'cell':
      case 'nestcell':
        this.endCell();
        return;
      case 'row':
        this.endCell(true);
        this.rows.push(this.row);
        this.row = [];
        return;
      case 'page':
        this.endParagraph();
        this.flushTable();
        this.blocks.push({ kind: 'pageBreak' });
        return;
      default:
        return;
    }
  }

  /** The first control word of a group may name a destination. Returns true when handled. */
  private destinationWord(name: string): boolean {
    // A `\*` before a destination we understand must not hide it (unless the enclosing group is hidden).
    const known = name === 'stylesheet' || name === 'fldinst' || name === 'listtext' || name === 'pntext';
    if (known || HEADERS.has(name) || FOOTERS.has(name)) this.state.skip = this.stack.at(-1)?.skip ?? false;
    if (SKIPPED_DESTINATIONS.has(name)) this.state.skip = true;
    else if (name === 'stylesheet') this.state.target = 'style';
    else if (HEADERS.has(name)) this.state.target = 'header';
    else if (FOOTERS.has(name)) this.state.target = 'footer';
    else if (name === 'fldinst') this.state.target = 'fieldInstruction';
    else if (name === 'listtext' || name === 'pntext') this.state.target = 'listText';
    else if (name === 'field') this.state.isField = true;
    else return false;
    return true;
  }

  private endCell(rowEnd = false): void {
    const text = this.text.trim();
    if (text) this.cellParts.push(text);
    this.resetParagraph();
    if (rowEnd && this.cellParts.length === 0) return; // \row right after \cell closes no extra cell
    this.row.push(this.cellParts.join('\n'));
    this.cellParts = [];
  }

  private endParagraph(): void {
    this.closeFields();
    if (this.inTable) {
      const text = this.text.trim();
      if (text) this.cellParts.push(text);
      this.resetParagraph();
      return;
    }
    this.flushTable();
    const styleName = this.styleNames.get(this.styleIndex) ?? '';
    const heading = HEADING_STYLE.exec(styleName);
    const headingDepth = heading ? Number(heading[1]) - 1 : this.outlineLevel;
    if (this.text.trim() !== '') {
      this.blocks.push({
        kind: 'paragraph',
        text: this.text,
        headingDepth: headingDepth !== undefined && headingDepth < 9 ? headingDepth : undefined,
        listDepth: this.hasListText || this.inList ? (this.listLevel ?? 0) : undefined,
        emphasis: this.emphasis,
        links: this.links,
        allBold: this.visibleChars > 0 && this.boldChars === this.visibleChars,
      });
    }
    this.resetParagraph();
  }

  private closeFields(): void {
    for (const field of this.fieldStack) {
      const text = this.text.slice(field.start);
      if (field.url && text.trim()) this.links.push({ text, url: field.url, start_index: field.start });
    }
    this.fieldStack = [];
  }

  private resetParagraph(): void {
    this.text = '';
    this.emphasis = [];
    this.links = [];
    this.boldChars = 0;
    this.visibleChars = 0;
    this.hasListText = false;
    this.lastEmphasisEnd = { b: -1, i: -1 };
  }

  private flushTable(): void {
    if (this.row.length > 0) this.rows.push(this.row);
    if (this.rows.length > 0) this.blocks.push({ kind: 'table', rows: this.rows });
    this.rows = [];
    this.row = [];
    this.cellParts = [];
  }
}
