import type { Link } from '../../elements/metadata.js';
import type { Relationship } from '../ooxml/package.js';
import { child, children, isOn, textContent, type XmlElement } from '../ooxml/xml.js';
import type { DocxStyles } from './styles.js';

/**
 * Reading one `w:p`: its visible text (runs, tabs, breaks, fields' results, tracked insertions, but not
 * deletions, hidden runs or field instructions), bold/italic spans, hyperlinks with their offsets, page
 * breaks that split it into fragments, and the pictures and text boxes anchored in it.
 */

/** Which markers count as page breaks: Word's rendered ones when the document has them, else hard ones. */
export type PageBreakMode = 'rendered' | 'hard' | 'none';

export interface Emphasis {
  text: string;
  tag: 'b' | 'i';
}

export interface TextFragment {
  text: string;
  emphasis: Emphasis[];
  links: Link[];
  /** True when every non-space character of the fragment is in a bold run. */
  allBold: boolean;
}

export type ParagraphPiece = { kind: 'text'; fragment: TextFragment } | { kind: 'pageBreak' };

export interface ImageRef {
  relationshipId: string;
  description: string;
}

export interface ParagraphContent {
  pieces: ParagraphPiece[];
  images: ImageRef[];
  /** `w:txbxContent` elements of text boxes and shapes anchored in the paragraph, in order. */
  textBoxes: XmlElement[];
}

export interface ParagraphReaderContext {
  styles: DocxStyles;
  relationships: ReadonlyMap<string, Relationship>;
  pageBreakMode: PageBreakMode;
}

/** Containers whose children are read as if they were the paragraph's own content. */
const TRANSPARENT = new Set([
  'w:ins',
  'w:smartTag',
  'w:customXml',
  'w:fldSimple',
  'w:moveTo',
  'w:dir',
  'w:bdo',
  'w:sdtContent',
]);
/** Content that is not visible in the document. */
const SKIPPED = new Set(['w:del', 'w:moveFrom', 'w:pPr', 'w:rPr', 'w:sdtPr', 'w:sdtEndPr', 'w:instrText']);

class FragmentBuilder {
  text = '';
  emphasis: Emphasis[] = [];
  links: Link[] = [];
  private bold = '';
  private italic = '';
  private boldChars = 0;
  private visibleChars = 0;

  append(text: string, bold: boolean, italic: boolean): void {
    if (text === '') return;
    this.text += text;
    const visible = text.replace(/\s/g, '').length;
    this.visibleChars += visible;
    if (bold) this.boldChars += visible;
    // Adjacent runs with the same emphasis form one span; whitespace-only runs never end a span.
    if (visible === 0) {
      if (this.bold) this.bold += text;
      if (this.italic) this.italic += text;
      return;
    }
    if (bold) this.bold += text;
    else this.closeSpan('b');
    if (italic) this.italic += text;
    else this.closeSpan('i');
  }

  private closeSpan(tag: 'b' | 'i'): void {
    const span = (tag === 'b' ? this.bold : this.italic).trim();
    if (span) this.emphasis.push({ text: span, tag });
    if (tag === 'b') this.bold = '';
    else this.italic = '';
  }

  finish(): TextFragment {
    this.closeSpan('b');
    this.closeSpan('i');
    return {
      text: this.text,
      emphasis: this.emphasis,
      links: this.links,
      allBold: this.visibleChars > 0 && this.boldChars === this.visibleChars,
    };
  }
}

class ParagraphReader {
  private readonly pieces: ParagraphPiece[] = [];
  private readonly images: ImageRef[] = [];
  private readonly textBoxes: XmlElement[] = [];
  private fragment = new FragmentBuilder();
  /** Open complex fields (fldChar begin … end): the HYPERLINK target and where its result starts. */
  private readonly fields: { url: string | undefined; start: number }[] = [];

  constructor(private readonly context: ParagraphReaderContext) {}

  read(paragraph: XmlElement): ParagraphContent {
    this.readContainer(paragraph);
    this.pieces.push({ kind: 'text', fragment: this.fragment.finish() });
    return { pieces: this.pieces, images: this.images, textBoxes: this.textBoxes };
  }

  private pageBreak(): void {
    this.pieces.push({ kind: 'text', fragment: this.fragment.finish() });
    this.pieces.push({ kind: 'pageBreak' });
    this.fragment = new FragmentBuilder();
  }

  private readContainer(element: XmlElement): void {
    for (const node of element.children) {
      if (typeof node === 'string') continue;
      this.readInline(node);
    }
  }

  private readInline(node: XmlElement): void {
    const name = node.name;
    if (name === 'w:r') this.readRun(node);
    else if (name === 'w:hyperlink') this.readHyperlink(node);
    else if (TRANSPARENT.has(name)) this.readContainer(node);
    else if (name === 'w:sdt') this.readContainer(child(node, 'w:sdtContent') ?? node);
    else if (name === 'mc:AlternateContent') this.readAlternateContent(node, (el) => this.readInline(el));
    else if (name === 'm:oMath' || name === 'm:oMathPara') this.fragment.append(mathText(node), false, false);
    else if (!SKIPPED.has(name) && !name.startsWith('w:')) {
      // Wrappers from other namespaces (w14, custom XML) may hold runs: look inside them.
      this.readContainer(node);
    }
  }

  private readAlternateContent(node: XmlElement, visit: (element: XmlElement) => void): void {
    // The first Choice is what Word shows; the Fallback repeats it in an older vocabulary.
    const chosen = child(node, 'mc:Choice') ?? child(node, 'mc:Fallback');
    if (chosen) for (const inner of children(chosen)) visit(inner);
  }

  private readHyperlink(node: XmlElement): void {
    const start = this.fragment.text.length;
    this.readContainer(node);
    const relationshipId = node.attrs['r:id'];
    const anchor = node.attrs['w:anchor'];
    const url =
      (relationshipId ? this.context.relationships.get(relationshipId)?.target : undefined) ??
      (anchor ? `#${anchor}` : undefined);
    this.addLink(url, start);
  }

  private addLink(url: string | undefined, start: number): void {
    const text = this.fragment.text.slice(start);
    if (url && text.trim() !== '' && start <= this.fragment.text.length) {
      this.fragment.links.push({ text, url, start_index: start });
    }
  }

  private readRun(run: XmlElement): void {
    const rPr = child(run, 'w:rPr');
    if (isOn(child(rPr, 'w:vanish')) && !isOn(child(rPr, 'w:webHidden'))) return;
    const styled = this.context.styles.characterStyleEmphasis(child(rPr, 'w:rStyle')?.attrs['w:val']);
    const boldElement = child(rPr, 'w:b');
    const italicElement = child(rPr, 'w:i');
    const bold = boldElement ? isOn(boldElement) : styled.bold;
    const italic = italicElement ? isOn(italicElement) : styled.italic;
    for (const node of run.children) {
      if (typeof node === 'string') continue;
      this.readRunChild(node, bold, italic);
    }
  }

  private readRunChild(node: XmlElement, bold: boolean, italic: boolean): void {
    const mode = this.context.pageBreakMode;
    switch (node.name) {
      case 'w:t':
        this.fragment.append(textContent(node), bold, italic);
        break;
      case 'w:tab':
      case 'w:ptab':
        this.fragment.append('\t', false, false);
        break;
      case 'w:br':
        if (node.attrs['w:type'] === 'page') {
          if (mode === 'hard') this.pageBreak();
        } else if (node.attrs['w:type'] !== 'column') this.fragment.append('\n', false, false);
        break;
      case 'w:cr':
        this.fragment.append('\n', false, false);
        break;
      case 'w:noBreakHyphen':
        this.fragment.append('-', bold, italic);
        break;
      case 'w:lastRenderedPageBreak':
        if (mode === 'rendered') this.pageBreak();
        break;
      case 'w:fldChar':
        this.readFieldChar(node);
        break;
      case 'w:instrText':
        this.readFieldInstruction(textContent(node));
        break;
      case 'w:drawing':
      case 'w:pict':
      case 'w:object':
        this.readDrawing(node);
        break;
      case 'mc:AlternateContent':
        this.readAlternateContent(node, (element) => this.readRunChild(element, bold, italic));
        break;
      default:
        break;
    }
  }

  private readFieldChar(node: XmlElement): void {
    const type = node.attrs['w:fldCharType'];
    if (type === 'begin') this.fields.push({ url: undefined, start: -1 });
    else if (type === 'separate') {
      const field = this.fields.at(-1);
      if (field) field.start = this.fragment.text.length;
    } else if (type === 'end') {
      const field = this.fields.pop();
      if (field?.url && field.start >= 0) this.addLink(field.url, field.start);
    }
  }

  private readFieldInstruction(instruction: string): void {
    const field = this.fields.at(-1);
    const hyperlink = /^\s*HYPERLINK\s+"([^"]+)"/.exec(instruction);
    if (field && hyperlink) field.url = hyperlink[1];
  }

  /** Pictures (DrawingML blips, VML image data) and text boxes inside a drawing, in document order. */
  private readDrawing(drawing: XmlElement): void {
    const description = findDescription(drawing);
    const visit = (element: XmlElement): void => {
      for (const node of element.children) {
        if (typeof node === 'string') continue;
        if (node.name === 'w:txbxContent') {
          this.textBoxes.push(node);
          continue; // its own pictures are read when the text box's paragraphs are read
        }
        if (node.name === 'mc:AlternateContent') {
          this.readAlternateContent(node, (inner) => visit({ name: '', attrs: {}, children: [inner] }));
          continue;
        }
        const relationshipId =
          node.name === 'a:blip'
            ? node.attrs['r:embed']
            : node.name === 'v:imagedata'
              ? node.attrs['r:id']
              : undefined;
        if (relationshipId) this.images.push({ relationshipId, description });
        visit(node);
      }
    };
    visit(drawing);
  }
}

function findDescription(drawing: XmlElement): string {
  const stack = [drawing];
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element.name === 'wp:docPr' || element.name === 'pic:cNvPr') {
      const text = (element.attrs.descr || element.attrs.title || '').trim();
      if (text) return text;
    }
    for (const node of element.children) if (typeof node !== 'string') stack.push(node);
  }
  return '';
}

function mathText(node: XmlElement): string {
  let text = '';
  for (const inner of node.children) {
    if (typeof inner === 'string') continue;
    text += inner.name === 'm:t' ? textContent(inner) : mathText(inner);
  }
  return text;
}

export function readParagraph(paragraph: XmlElement, context: ParagraphReaderContext): ParagraphContent {
  return new ParagraphReader(context).read(paragraph);
}

/** The paragraph's text without page-break splitting (table cells, headers, footers). */
export function paragraphText(paragraph: XmlElement, context: ParagraphReaderContext): string {
  const content = readParagraph(paragraph, { ...context, pageBreakMode: 'none' });
  return content.pieces.map((piece) => (piece.kind === 'text' ? piece.fragment.text : '')).join('');
}
