import { child, children, isOn, path, type XmlElement } from '../ooxml/xml.js';

/**
 * What Word paragraph and character styles mean for partitioning: which styles are headings (and at
 * which level), which are list styles, which numbering levels are real lists, and which character
 * styles are bold or italic. Styles inherit through `w:basedOn`, so "My Heading" based on "Heading 2"
 * is a heading too.
 */

interface StyleInfo {
  name: string;
  basedOn: string | undefined;
  outlineLevel: number | undefined;
  numbering: NumberingRef | undefined;
  bold: boolean;
  italic: boolean;
}

export interface NumberingRef {
  numId: string;
  level: number;
}

export type ParagraphRole =
  | { kind: 'title'; depth: number }
  | { kind: 'list'; depth: number }
  | { kind: 'caption' }
  | undefined;

const HEADING_NAME = /^heading\s*([1-9])$/i;
/** Built-in list styles: "List Bullet", "List Number 2", "List Paragraph", "List Continue"... */
const LIST_STYLE_NAME = /^list(?:\s+(?:bullet|number|paragraph|continue))?(?:\s+([2-9]))?$/i;
/** Word's outline level 9 means "body text". */
const BODY_TEXT_OUTLINE_LEVEL = 9;
/** basedOn chains are short in practice; the bound stops cycles in broken files. */
const MAX_INHERITANCE = 12;

export class DocxStyles {
  private readonly styles = new Map<string, StyleInfo>();
  /** numId → (level → numFmt), from numbering.xml. */
  private readonly levelFormats = new Map<string, Map<number, string>>();
  private defaultParagraphStyle: string | undefined;

  constructor(stylesXml: XmlElement | undefined, numberingXml: XmlElement | undefined) {
    for (const style of children(path(stylesXml, 'w:styles'), 'w:style')) {
      const id = style.attrs['w:styleId'];
      if (!id) continue;
      const pPr = child(style, 'w:pPr');
      const rPr = child(style, 'w:rPr');
      const outline = child(pPr, 'w:outlineLvl')?.attrs['w:val'];
      this.styles.set(id, {
        name: child(style, 'w:name')?.attrs['w:val'] ?? id,
        basedOn: child(style, 'w:basedOn')?.attrs['w:val'],
        outlineLevel: outline === undefined ? undefined : Number(outline),
        numbering: numberingOf(child(pPr, 'w:numPr')),
        bold: isOn(child(rPr, 'w:b')),
        italic: isOn(child(rPr, 'w:i')),
      });
      if (style.attrs['w:type'] === 'paragraph' && isOn(style, 'w:default') && style.attrs['w:default']) {
        this.defaultParagraphStyle = id;
      }
    }
    this.readNumbering(numberingXml);
  }

  private readNumbering(numberingXml: XmlElement | undefined): void {
    const root = path(numberingXml, 'w:numbering');
    const abstractFormats = new Map<string, Map<number, string>>();
    for (const abstract of children(root, 'w:abstractNum')) {
      const levels = new Map<number, string>();
      for (const level of children(abstract, 'w:lvl')) {
        levels.set(Number(level.attrs['w:ilvl'] ?? 0), child(level, 'w:numFmt')?.attrs['w:val'] ?? 'decimal');
      }
      abstractFormats.set(abstract.attrs['w:abstractNumId'] ?? '', levels);
    }
    for (const num of children(root, 'w:num')) {
      const abstractId = child(num, 'w:abstractNumId')?.attrs['w:val'] ?? '';
      const levels = new Map(abstractFormats.get(abstractId) ?? []);
      for (const override of children(num, 'w:lvlOverride')) {
        const format = path(override, 'w:lvl', 'w:numFmt')?.attrs['w:val'];
        if (format) levels.set(Number(override.attrs['w:ilvl'] ?? 0), format);
      }
      this.levelFormats.set(num.attrs['w:numId'] ?? '', levels);
    }
  }

  /** The style chain from the paragraph's own style up through basedOn. */
  private *chain(styleId: string | undefined): Generator<StyleInfo> {
    let id = styleId ?? this.defaultParagraphStyle;
    for (let step = 0; id !== undefined && step < MAX_INHERITANCE; step++) {
      const style = this.styles.get(id);
      if (!style) return;
      yield style;
      id = style.basedOn;
    }
  }

  styleName(styleId: string | undefined): string | undefined {
    return styleId === undefined ? undefined : this.styles.get(styleId)?.name;
  }

  /** Heading, list or caption role of a paragraph from its properties (`w:pPr`) and its style chain. */
  paragraphRole(pPr: XmlElement | undefined): ParagraphRole {
    const styleId = child(pPr, 'w:pStyle')?.attrs['w:val'];
    const ownOutline = child(pPr, 'w:outlineLvl')?.attrs['w:val'];
    let numbering = numberingOf(child(pPr, 'w:numPr'));
    let listStyleDepth: number | undefined;

    for (const style of this.chain(styleId)) {
      const heading = HEADING_NAME.exec(style.name);
      if (heading) return { kind: 'title', depth: Number(heading[1]) - 1 };
      if (/^title$/i.test(style.name)) return { kind: 'title', depth: 0 };
      if (/^subtitle$/i.test(style.name)) return { kind: 'title', depth: 1 };
      if (/^caption$/i.test(style.name)) return { kind: 'caption' };
      if (style.outlineLevel !== undefined && style.outlineLevel < BODY_TEXT_OUTLINE_LEVEL) {
        return { kind: 'title', depth: style.outlineLevel };
      }
      const list = LIST_STYLE_NAME.exec(style.name);
      if (list && listStyleDepth === undefined) listStyleDepth = list[1] ? Number(list[1]) - 1 : 0;
      numbering ??= style.numbering;
    }
    if (ownOutline !== undefined && Number(ownOutline) < BODY_TEXT_OUTLINE_LEVEL) {
      return { kind: 'title', depth: Number(ownOutline) };
    }
    if (numbering && this.isRealList(numbering)) return { kind: 'list', depth: numbering.level };
    if (listStyleDepth !== undefined) return { kind: 'list', depth: listStyleDepth };
    return undefined;
  }

  /** numId 0 switches numbering off; a level formatted "none" shows no number or bullet. */
  private isRealList(numbering: NumberingRef): boolean {
    if (numbering.numId === '0') return false;
    const format = this.levelFormats.get(numbering.numId)?.get(numbering.level);
    return format !== 'none';
  }

  characterStyleEmphasis(styleId: string | undefined): { bold: boolean; italic: boolean } {
    if (styleId === undefined) return { bold: false, italic: false };
    let bold = false;
    let italic = false;
    for (const style of this.chain(styleId)) {
      bold ||= style.bold;
      italic ||= style.italic;
    }
    return { bold, italic };
  }
}

function numberingOf(numPr: XmlElement | undefined): NumberingRef | undefined {
  if (!numPr) return undefined;
  const numId = child(numPr, 'w:numId')?.attrs['w:val'];
  if (numId === undefined) return undefined;
  return { numId, level: Number(child(numPr, 'w:ilvl')?.attrs['w:val'] ?? 0) || 0 };
}
