import type { Link } from '../../elements/metadata.js';
import type { TableCell } from '../../elements/table-html.js';
import type { Relationship } from '../ooxml/package.js';
import { child, children, textContent, type XmlElement } from '../ooxml/xml.js';

/**
 * DrawingML text (`a:txBody` of shapes, table cells, notes): paragraphs with their level, bullet,
 * bold/italic spans and hyperlinks; and DrawingML tables (`a:tbl`) as rows for tableToHtml.
 */

export interface DrawingParagraph {
  text: string;
  /** Outline level, 0-8 (`a:pPr lvl`). */
  level: number;
  /** Explicit bullet: 'char'/'number' when the paragraph shows one, 'none' when switched off. */
  bullet: 'char' | 'number' | 'none' | undefined;
  emphasis: { text: string; tag: 'b' | 'i' }[];
  links: Link[];
}

export function readTextBody(
  txBody: XmlElement | undefined,
  relationships: ReadonlyMap<string, Relationship>,
): DrawingParagraph[] {
  return children(txBody, 'a:p').map((paragraph) => readParagraph(paragraph, relationships));
}

function isTrue(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

function readParagraph(
  paragraph: XmlElement,
  relationships: ReadonlyMap<string, Relationship>,
): DrawingParagraph {
  const pPr = child(paragraph, 'a:pPr');
  let text = '';
  const emphasis: DrawingParagraph['emphasis'] = [];
  const links: Link[] = [];
  for (const node of children(paragraph)) {
    if (node.name === 'a:br') {
      text += '\n';
      continue;
    }
    if (node.name !== 'a:r' && node.name !== 'a:fld') continue;
    const runText = textContent(child(node, 'a:t') ?? { name: '', attrs: {}, children: [] });
    if (runText === '') continue;
    const rPr = child(node, 'a:rPr');
    const trimmed = runText.trim();
    if (trimmed) {
      if (isTrue(rPr?.attrs.b)) emphasis.push({ text: trimmed, tag: 'b' });
      if (isTrue(rPr?.attrs.i)) emphasis.push({ text: trimmed, tag: 'i' });
    }
    const relationshipId = child(rPr, 'a:hlinkClick')?.attrs['r:id'];
    const url = relationshipId ? relationships.get(relationshipId)?.target : undefined;
    if (url && trimmed) links.push({ text: runText, url, start_index: text.length });
    text += runText;
  }
  return {
    text,
    level: Number(pPr?.attrs.lvl ?? 0) || 0,
    bullet: child(pPr, 'a:buNone')
      ? 'none'
      : child(pPr, 'a:buAutoNum')
        ? 'number'
        : child(pPr, 'a:buChar')
          ? 'char'
          : undefined,
    emphasis,
    links,
  };
}

/** Rows of a DrawingML table: gridSpan/rowSpan kept, the cells they cover (hMerge/vMerge) dropped. */
export function readDrawingTable(
  table: XmlElement,
  relationships: ReadonlyMap<string, Relationship>,
): { rows: TableCell[][]; headerRows: number } {
  const rows: TableCell[][] = [];
  for (const row of children(table, 'a:tr')) {
    const cells: TableCell[] = [];
    for (const cell of children(row, 'a:tc')) {
      if (cell.attrs.hMerge === '1' || cell.attrs.vMerge === '1') continue;
      const text = readTextBody(child(cell, 'a:txBody'), relationships)
        .map((paragraph) => paragraph.text.trim())
        .filter(Boolean)
        .join('\n');
      const tableCell: TableCell = { text };
      const colspan = Number(cell.attrs.gridSpan ?? 1);
      const rowspan = Number(cell.attrs.rowSpan ?? 1);
      if (colspan > 1) tableCell.colspan = colspan;
      if (rowspan > 1) tableCell.rowspan = rowspan;
      cells.push(tableCell);
    }
    rows.push(cells);
  }
  const firstRow = child(table, 'a:tblPr')?.attrs.firstRow === '1';
  return { rows, headerRows: firstRow && rows.length > 1 ? 1 : 0 };
}
