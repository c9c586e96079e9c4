import { type TableCell, tableToText } from '../../elements/table-html.js';
import { child, children, isOn, type XmlElement } from '../ooxml/xml.js';

/**
 * A Word table (`w:tbl`) as rows of cells for tableToHtml: `w:gridSpan` becomes colspan, a vertical
 * merge (`w:vMerge` restart … continue) becomes one cell with rowspan, `w:gridBefore` keeps later cells
 * in their grid columns, and rows marked `w:tblHeader` are header rows. A nested table is flattened into
 * the text of the cell that holds it, row after row.
 */

export interface WordTable {
  rows: TableCell[][];
  headerRows: number;
}

/** Reads the text of one paragraph; supplied by the caller so tables reuse the paragraph reader. */
export type ParagraphTextReader = (paragraph: XmlElement) => string;

interface OpenMerge {
  cell: TableCell;
}

export function readTable(table: XmlElement, readText: ParagraphTextReader): WordTable {
  const rows: TableCell[][] = [];
  let headerRows = 0;
  let headerRun = true;
  /** Grid column → the cell a vertical merge started in. */
  const merges = new Map<number, OpenMerge>();

  for (const row of rowsOf(table)) {
    const trPr = child(row, 'w:trPr');
    if (headerRun && isOn(child(trPr, 'w:tblHeader'))) headerRows++;
    else headerRun = false;

    const cells: TableCell[] = [];
    let column = Number(child(trPr, 'w:gridBefore')?.attrs['w:val'] ?? 0) || 0;
    if (column > 0) cells.push({ text: '', colspan: column });
    for (const cell of cellsOf(row)) {
      const tcPr = child(cell, 'w:tcPr');
      const span = Math.max(1, Number(child(tcPr, 'w:gridSpan')?.attrs['w:val'] ?? 1) || 1);
      const vMerge = child(tcPr, 'w:vMerge');
      const mergeValue = vMerge?.attrs['w:val'];
      const open = merges.get(column);
      if (vMerge && mergeValue !== 'restart' && open) {
        open.cell.rowspan = (open.cell.rowspan ?? 1) + 1;
        column += span;
        continue;
      }
      const tableCell: TableCell = { text: cellText(cell, readText) };
      if (span > 1) tableCell.colspan = span;
      cells.push(tableCell);
      if (vMerge) merges.set(column, { cell: tableCell });
      else merges.delete(column);
      column += span;
    }
    rows.push(cells);
  }
  return { rows, headerRows: Math.min(headerRows, rows.length) };
}

/** Rows, looking through content controls and custom XML that may wrap them. */
function rowsOf(table: XmlElement): XmlElement[] {
  const rows: XmlElement[] = [];
  for (const node of children(table)) {
    if (node.name === 'w:tr') rows.push(node);
    else if (node.name === 'w:sdt') rows.push(...rowsOf(child(node, 'w:sdtContent') ?? node));
    else if (node.name === 'w:customXml') rows.push(...rowsOf(node));
  }
  return rows;
}

function cellsOf(row: XmlElement): XmlElement[] {
  const cells: XmlElement[] = [];
  for (const node of children(row)) {
    if (node.name === 'w:tc') cells.push(node);
    else if (node.name === 'w:sdt') cells.push(...cellsOf(child(node, 'w:sdtContent') ?? node));
    else if (node.name === 'w:customXml') cells.push(...cellsOf(node));
  }
  return cells;
}

function cellText(cell: XmlElement, readText: ParagraphTextReader): string {
  const parts: string[] = [];
  const visit = (container: XmlElement) => {
    for (const block of children(container)) {
      if (block.name === 'w:p') {
        const text = readText(block).trim();
        if (text) parts.push(text);
      } else if (block.name === 'w:tbl') {
        const nested = readTable(block, readText);
        const text = tableToText(nested.rows).replace(/\n/g, ' ');
        if (text) parts.push(text);
      } else if (block.name === 'w:sdt') {
        visit(child(block, 'w:sdtContent') ?? block);
      } else if (block.name === 'w:customXml') {
        visit(block);
      }
    }
  };
  visit(cell);
  return parts.join('\n');
}
