import * as XLSX from '@e965/xlsx';
import { draft, type ElementDraft } from '../../elements/element.js';
import { type TableCell, tableToHtml, tableToText } from '../../elements/table-html.js';
import { ServiceError } from '../../errors.js';
import type { PartitionLimits } from '../../pipeline/limits.js';
import { classifyText } from '../../text/text-type.js';
import type { FormatPartitioner } from '../format.js';
import { isCompoundFile, isEncryptedOoxml, openOfficeZip } from '../ooxml/package.js';
import { findRegions, type Merge, type Region, SparseSheet, singleCellEdges } from './regions.js';

/**
 * Spreadsheets (.xlsx and legacy .xls), read with SheetJS: one page per sheet (page_number = sheet
 * index, page_name = sheet name). Each region of connected non-empty cells is a table; one-cell rows at
 * the top or bottom of a region are its title or notes, classified as text, and a region that is a single
 * cell is text too. Cells are their formatted values (dates and numbers as shown in the sheet).
 */
export const partition: FormatPartitioner = async ({ data, limits, fileType }) =>
  partitionSpreadsheet(data, limits, fileType.id === 'xls' ? 'xls' : 'xlsx');

export function partitionSpreadsheet(
  data: Uint8Array,
  limits: PartitionLimits,
  format: 'xlsx' | 'xls',
): ElementDraft[] {
  const workbook = readWorkbook(data, limits, format);
  const drafts: ElementDraft[] = [];
  workbook.SheetNames.forEach((name, index) => {
    const sheet = workbook.Sheets[name];
    if (!sheet) return;
    if (index > 0) drafts.push(draft('PageBreak', ''));
    drafts.push(...sheetDrafts(sheet, { page_number: index + 1, page_name: name }));
  });
  return drafts;
}

function readWorkbook(data: Uint8Array, limits: PartitionLimits, format: 'xlsx' | 'xls'): XLSX.WorkBook {
  if (data.length === 0) throw new ServiceError('corrupt_document', `The ${format} file is empty.`);
  if (isEncryptedOoxml(data)) {
    throw new ServiceError('encrypted_document', `The ${format} file is password-protected.`);
  }
  if (!isCompoundFile(data)) {
    // SheetJS inflates without limits: inflate every entry once through the guarded reader first, so a
    // zip bomb stops at the limit (and a broken zip is reported as one) before SheetJS sees it.
    const zip = openOfficeZip(data, limits, format);
    for (const name of zip.names()) zip.read(name);
    if (!zip.has('xl/workbook.xml') && !zip.names().some((name) => name.endsWith('workbook.xml'))) {
      throw new ServiceError('corrupt_document', `The ${format} package has no workbook part.`);
    }
  }
  try {
    return XLSX.read(data, { type: 'buffer', dense: true, cellHTML: false, cellStyles: false, WTF: false });
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (/password|encrypt/i.test(message)) {
      throw new ServiceError('encrypted_document', `The ${format} file is password-protected.`, {
        cause: error,
      });
    }
    throw new ServiceError('corrupt_document', `The ${format} file cannot be read: ${message}`, {
      cause: error,
    });
  }
}

/** Beyond this many cells a region is written as lines of text: its HTML would be unusably large. */
const MAX_TABLE_CELLS = 2_000_000;

/** The non-empty cells of a sheet, read from SheetJS's dense rows (holes are skipped, never allocated). */
function readSheet(sheet: XLSX.WorkSheet): SparseSheet {
  const cells = new SparseSheet();
  const data = (sheet as { '!data'?: (XLSX.CellObject | undefined)[][] })['!data'] ?? [];
  data.forEach((row, r) => {
    row?.forEach((cell, c) => {
      if (!cell || cell.t === 'z') return;
      cells.set(r, c, cellText(cell));
    });
  });
  return cells;
}

function cellText(cell: XLSX.CellObject): string {
  if (cell.w !== undefined) return cell.w;
  if (cell.v === undefined || cell.v === null) return '';
  try {
    return XLSX.utils.format_cell(cell);
  } catch {
    return String(cell.v);
  }
}

function sheetDrafts(
  sheet: XLSX.WorkSheet,
  position: { page_number: number; page_name: string },
): ElementDraft[] {
  const cells = readSheet(sheet);
  const merges: Merge[] = (sheet['!merges'] ?? []).map((range) => ({
    row: range.s.r,
    col: range.s.c,
    rows: range.e.r - range.s.r + 1,
    cols: range.e.c - range.s.c + 1,
  }));

  const drafts: ElementDraft[] = [];
  for (const region of findRegions(cells, merges)) {
    const { leading, trailing } = singleCellEdges(cells, region);
    const tableTop = region.top + leading;
    const tableBottom = region.bottom - trailing;
    for (let r = region.top; r < tableTop; r++) drafts.push(textDraft(cells, r, region, position));
    if (tableTop <= tableBottom)
      drafts.push(...tableDrafts(cells, merges, { ...region, top: tableTop, bottom: tableBottom }, position));
    for (let r = Math.max(tableBottom + 1, tableTop); r <= region.bottom; r++) {
      drafts.push(textDraft(cells, r, region, position));
    }
  }
  return drafts.filter((element) => element.text !== '');
}

function tableDrafts(
  cells: SparseSheet,
  merges: readonly Merge[],
  region: Region,
  position: { page_number: number; page_name: string },
): ElementDraft[] {
  const columns = cells.usedColumns(region);
  if ((region.bottom - region.top + 1) * columns.length > MAX_TABLE_CELLS) {
    const lines: ElementDraft[] = [];
    for (let r = region.top; r <= region.bottom; r++) lines.push(textDraft(cells, r, region, position));
    return lines;
  }
  const rows = tableRows(cells, merges, region, columns);
  const text = tableToText(rows);
  return text ? [draft('Table', text, { ...position, text_as_html: tableToHtml(rows) })] : [];
}

function textDraft(
  cells: SparseSheet,
  row: number,
  region: Region,
  position: { page_number: number; page_name: string },
): ElementDraft {
  const texts = [...(cells.rows.get(row) ?? new Map<number, string>()).entries()]
    .filter(([col]) => col >= region.left && col <= region.right)
    .sort(([a], [b]) => a - b)
    .map(([, text]) => text.trim());
  const classified = classifyText(texts.join(' '));
  return draft(classified.type, classified.text, { ...position });
}

/**
 * The region's cells over its used columns (empty spacer columns dropped); a merged range is one cell
 * with its spans counted in kept columns, and the cells it covers are left out.
 */
function tableRows(
  cells: SparseSheet,
  merges: readonly Merge[],
  region: Region,
  columns: number[],
): TableCell[][] {
  const covered = new Set<string>();
  const origins = new Map<string, Merge>();
  for (const merge of merges) {
    if (merge.row > region.bottom || merge.row + merge.rows - 1 < region.top) continue;
    if (merge.col > region.right || merge.col + merge.cols - 1 < region.left) continue;
    if (merge.rows * merge.cols > MAX_TABLE_CELLS) continue;
    origins.set(`${merge.row},${merge.col}`, merge);
    for (let r = merge.row; r < merge.row + merge.rows; r++) {
      for (let c = merge.col; c < merge.col + merge.cols; c++) {
        if (r !== merge.row || c !== merge.col) covered.add(`${r},${c}`);
      }
    }
  }
  const rows: TableCell[][] = [];
  for (let r = region.top; r <= region.bottom; r++) {
    const row: TableCell[] = [];
    for (const c of columns) {
      if (covered.size > 0 && covered.has(`${r},${c}`)) continue;
      const cell: TableCell = { text: cells.get(r, c) };
      const merge = origins.size > 0 ? origins.get(`${r},${c}`) : undefined;
      if (merge) {
        const lastCol = merge.col + merge.cols - 1;
        const colspan = columns.filter((col) => col >= c && col <= lastCol).length;
        const rowspan = Math.min(region.bottom, merge.row + merge.rows - 1) - r + 1;
        if (colspan > 1) cell.colspan = colspan;
        if (rowspan > 1) cell.rowspan = rowspan;
      }
      row.push(cell);
    }
    rows.push(row);
  }
  return rows;
}
