import { escapeHtml } from '../../elements/table-html.js';
import { IMAGE_EXTENSION, linkTarget, orgInlineToHtml } from './inline.js';

/**
 * Org mode → HTML, the subset documents use: headlines (`*` levels; TODO keywords, priorities and tags
 * removed), #+TITLE, paragraphs, plain lists nested by indentation (check boxes removed, description
 * items read "term: description"), tables (a rule after the first rows makes them the header), source,
 * example, quote, verse and special blocks, fixed-width `:` lines, rules, #+CAPTION for the next table
 * or image, and image links. Comments, drawers, planning lines, #+INCLUDE and other keywords are not
 * content. No maintained JavaScript Org parser exists (the reference is Emacs itself), hence this one.
 */

const HEADLINE = /^(\*+)\s+(.*)$/;
const TODO_KEYWORD = /^(?:TODO|DONE|NEXT|WAITING|HOLD|CANCELLED|CANCELED|STARTED|SOMEDAY)\s+/;
const PRIORITY = /^\[#[A-Z0-9]\]\s*/;
const TAGS = /\s+:[\w@#%:]+:\s*$/;
const KEYWORD = /^\s*#\+(\w+):\s*(.*)$/;
const BLOCK_BEGIN = /^\s*#\+begin_(\w+)(?:\s+(.*))?$/i;
const DRAWER = /^\s*:[\w-]+:\s*$/;
const PLANNING = /^\s*(?:SCHEDULED|DEADLINE|CLOSED):/;
const LIST_ITEM = /^(\s*)([-+]|(?<=^\s+)\*|\d+[.)]|[a-zA-Z][.)])\s+(.*)$/;
const CHECKBOX = /^\[[ xX-]\]\s+/;
const TABLE_ROW = /^\s*\|/;
const TABLE_RULE = /^\s*\|[-+]+\|?\s*$/;
const FIXED_WIDTH = /^\s*:(?:\s|$)/;
const RULE = /^\s*-{5,}\s*$/;
const COMMENT = /^\s*#(?:\s|$)/;

const isBlank = (line: string | undefined) => line === undefined || line.trim() === '';
const indentOf = (line: string) => line.length - line.trimStart().length;

export function orgToHtml(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  const hasTitle = lines.some((line) => /^\s*#\+title:\s*\S/i.test(line));
  return new OrgParser(lines, hasTitle ? 1 : 0).parse();
}

class OrgParser {
  private index = 0;
  private caption: string | undefined;
  private readonly out: string[] = [];

  constructor(
    private readonly lines: string[],
    /** With a #+TITLE (shown as the top heading), `*` headlines sit one level below it. */
    private readonly headlineOffset: number,
  ) {}

  parse(): string {
    while (this.index < this.lines.length) this.block();
    return this.out.join('\n');
  }

  private block(): void {
    const line = this.lines[this.index]!;
    if (isBlank(line) || COMMENT.test(line) || PLANNING.test(line)) {
      this.index++;
      return;
    }
    const headline = HEADLINE.exec(line);
    if (headline) {
      const level = Math.min(headline[1]!.length + this.headlineOffset, 6);
      const text = headline[2]!.replace(TODO_KEYWORD, '').replace(PRIORITY, '').replace(TAGS, '').trim();
      if (text !== '') this.out.push(`<h${level}>${orgInlineToHtml(text)}</h${level}>`);
      this.index++;
      return;
    }
    const begin = BLOCK_BEGIN.exec(line);
    if (begin) {
      this.greaterBlock(begin[1]!.toLowerCase(), (begin[2] ?? '').trim());
      return;
    }
    const keyword = KEYWORD.exec(line);
    if (keyword) {
      const name = keyword[1]!.toLowerCase();
      if (name === 'title') this.out.push(`<h1>${orgInlineToHtml(keyword[2]!.trim())}</h1>`);
      if (name === 'caption') this.caption = keyword[2]!.trim();
      this.index++;
      return;
    }
    if (DRAWER.test(line)) {
      this.skipDrawer();
      return;
    }
    if (TABLE_ROW.test(line)) {
      this.table();
      return;
    }
    if (FIXED_WIDTH.test(line)) {
      const code = this.takeWhile((l) => FIXED_WIDTH.test(l)).map((l) => l.replace(/^\s*:\s?/, ''));
      this.out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      return;
    }
    if (RULE.test(line)) {
      this.out.push('<hr>');
      this.index++;
      return;
    }
    if (LIST_ITEM.test(line)) {
      this.list();
      return;
    }
    this.paragraph();
  }

  private takeWhile(predicate: (line: string) => boolean): string[] {
    const taken: string[] = [];
    while (this.index < this.lines.length && predicate(this.lines[this.index]!))
      taken.push(this.lines[this.index++]!);
    return taken;
  }

  private skipDrawer(): void {
    const start = this.index;
    this.index++;
    while (this.index < this.lines.length && !/^\s*:END:\s*$/i.test(this.lines[this.index]!)) this.index++;
    // A drawer without :END: is not a drawer: read the line as text instead.
    if (this.index >= this.lines.length) {
      this.index = start;
      this.paragraph();
      return;
    }
    this.index++;
  }

  private greaterBlock(kind: string, parameters: string): void {
    const start = ++this.index;
    const end = new RegExp(`^\\s*#\\+end_${kind}\\s*$`, 'i');
    while (this.index < this.lines.length && !end.test(this.lines[this.index]!)) this.index++;
    const body = this.lines.slice(start, this.index);
    this.index++; // past #+END_ (or the end of an unterminated block)
    switch (kind) {
      case 'src':
      case 'example': {
        const code = dedent(body)
          .map((l) => l.replace(/^(\s*),([*#])/, '$1$2'))
          .join('\n')
          .replace(/^\n+|\s+$/g, '');
        if (code !== '') this.out.push(`<pre><code>${escapeHtml(code)}</code></pre>`);
        return;
      }
      case 'comment':
        return;
      case 'export':
        if (parameters.toLowerCase().startsWith('html')) this.out.push(body.join('\n'));
        return;
      case 'verse':
        this.out.push(
          `<p>${body
            .filter((l) => !isBlank(l))
            .map((l) => orgInlineToHtml(l.trim()))
            .join('<br>')}</p>`,
        );
        return;
      default: {
        const inner = new OrgParser(body, this.headlineOffset).parse();
        this.out.push(kind === 'quote' ? `<blockquote>${inner}</blockquote>` : `<div>${inner}</div>`);
      }
    }
  }

  private table(): void {
    const rows = this.takeWhile((l) => TABLE_ROW.test(l));
    const cells: string[][] = [];
    let headerRows = 0;
    for (const row of rows) {
      if (TABLE_RULE.test(row)) {
        if (headerRows === 0 && cells.length > 0) headerRows = cells.length;
        continue;
      }
      cells.push(
        row
          .trim()
          .replace(/^\|/, '')
          .replace(/\|$/, '')
          .split('|')
          .map((cell) => cell.trim()),
      );
    }
    if (headerRows >= cells.length) headerRows = 0;
    const html = cells.map((row, index) => {
      const tag = index < headerRows ? 'th' : 'td';
      return `<tr>${row.map((cell) => `<${tag}>${orgInlineToHtml(cell)}</${tag}>`).join('')}</tr>`;
    });
    const caption = this.takeCaption();
    this.out.push(
      `<table>${caption ? `<caption>${escapeHtml(caption)}</caption>` : ''}<thead>${html.slice(0, headerRows).join('')}</thead><tbody>${html.slice(headerRows).join('')}</tbody></table>`,
    );
  }

  private takeCaption(): string | undefined {
    const caption = this.caption;
    this.caption = undefined;
    return caption;
  }

  /** Plain lists: items nest by indentation; lines indented under an item continue it. */
  private list(): void {
    const open: number[] = [];
    const html: string[] = [];
    while (this.index < this.lines.length) {
      const line = this.lines[this.index]!;
      const item = LIST_ITEM.exec(line);
      if (!item) {
        // One blank line inside a list is allowed when the list goes on after it.
        if (isBlank(line) && LIST_ITEM.test(this.lines[this.index + 1] ?? '') && open.length > 0) {
          this.index++;
          continue;
        }
        break;
      }
      const indent = item[1]!.length;
      while (open.length > 0 && indent < open.at(-1)!) {
        html.push('</li></ul>');
        open.pop();
      }
      if (open.length === 0 || indent > open.at(-1)!) {
        html.push('<ul>');
        open.push(indent);
      } else {
        html.push('</li>');
      }
      this.index++;
      const continuation = this.takeWhile((l) => !isBlank(l) && indentOf(l) > indent && !LIST_ITEM.test(l));
      let text = [item[3]!, ...continuation.map((l) => l.trim())].join(' ').replace(CHECKBOX, '');
      const description = /^(.*?)\s+::\s+(.*)$/.exec(text);
      if (description) text = `${description[1]}: ${description[2]}`;
      html.push(`<li>${orgInlineToHtml(text)}`);
    }
    while (open.length > 0) {
      html.push('</li></ul>');
      open.pop();
    }
    this.out.push(html.join(''));
  }

  private paragraph(): void {
    const start = this.index;
    this.index++;
    this.takeWhile(
      (l) =>
        !isBlank(l) &&
        !HEADLINE.test(l) &&
        !BLOCK_BEGIN.test(l) &&
        !KEYWORD.test(l) &&
        !TABLE_ROW.test(l) &&
        !LIST_ITEM.test(l) &&
        !FIXED_WIDTH.test(l) &&
        !COMMENT.test(l),
    );
    const text = this.lines
      .slice(start, this.index)
      .map((l) => l.trim())
      .join(' ');
    const image = /^\[\[([^\]]+)\](?:\[([^\]]*)\])?\]$/.exec(text);
    if (image && IMAGE_EXTENSION.test(linkTarget(image[1]!))) {
      // The caption describes the image: it is the Image text, unless the link has its own description.
      const caption = this.takeCaption();
      const alt = image[2] || caption || '';
      const img = `<img src="${escapeHtml(linkTarget(image[1]!))}" alt="${escapeHtml(alt)}">`;
      const figcaption =
        caption && caption !== alt ? `<figcaption>${orgInlineToHtml(caption)}</figcaption>` : '';
      this.out.push(`<figure>${img}${figcaption}</figure>`);
      return;
    }
    this.out.push(`<p>${orgInlineToHtml(text)}</p>`);
  }
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((line) => !isBlank(line)).map(indentOf);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(common));
}
