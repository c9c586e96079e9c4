import * as XLSX from '@e965/xlsx';
import { draft, type ElementDraft } from '../../elements/element.js';
import { type TableCell, tableToHtml, tableToText } from '../../elements/table-html.js';
import { ServiceError } from '../../errors.js';
import type { PartitionLimits } from '../../pipeline/limits.js';
import { classifyText } from '../../text/text-type.js';
import type { FormatPartitioner } from '../format.js';
import { isCompoundFile, isEncryptedOoxml, openOfficeZip } from '../ooxml/package.js';
import { findRegions, type Merge, type Region, singleCellEdges } from './regions.js';

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

function sheetDrafts(
  sheet: XLSX.WorkSheet,
  position: { page_number: number; page_name: string },
): ElementDraft[] {
  const reference = sheet['!ref'];
  if (!reference) return [];
  const origin = XLSX.utils.decode_range(reference).s;
  const grid = (
    XLSX.utils.sheet_to_json<unknown[]>(sheet, {
      header: 1,
      raw: false,
      defval: '',
      blankrows: true,
    }) as unknown[][]
  ).map((row) => row.map((value) => (value === null || value === undefined ? '' : String(value))));
  const merges: Merge[] = (sheet['!merges'] ?? []).map((range) => ({
    row: range.s.r - origin.r,
    col: range.s.c - origin.c,
    rows: range.e.r - range.s.r + 1,
    cols: range.e.c - range.s.c + 1,
  }));

  const drafts: ElementDraft[] = [];
  for (const region of findRegions(grid, merges)) {
    const { leading, trailing } = singleCellEdges(grid, region);
    for (let r = region.top; r < region.top + leading; r++) drafts.push(textDraft(grid, r, region, position));
    const tableTop = region.top + leading;
    const tableBottom = region.bottom - trailing;
    if (tableTop <= tableBottom) {
      const rows = tableRows(grid, merges, { ...region, top: tableTop, bottom: tableBottom });
      const text = tableToText(rows);
      if (text) drafts.push(draft('Table', text, { ...position, text_as_html: tableToHtml(rows) }));
    }
    for (let r = Math.max(tableBottom + 1, tableTop); r <= region.bottom; r++) {
      drafts.push(textDraft(grid, r, region, position));
    }
  }
  return drafts.filter((element) => element.text !== '');
}

function textDraft(
  grid: readonly (readonly string[])[],
  row: number,
  region: Region,
  position: { page_number: number; page_name: string },
): ElementDraft {
  const text = (grid[row] ?? [])
    .slice(region.left, region.right + 1)
    .join(' ')
    .trim();
  const classified = classifyText(text);
  return draft(classified.type, classified.text, { ...position });
}

/** The region's cells; a merged range is one cell with its spans, the cells it covers are left out. */
function tableRows(
  grid: readonly (readonly string[])[],
  merges: readonly Merge[],
  region: Region,
): TableCell[][] {
  const covered = new Set<string>();
  const spans = new Map<string, Merge>();
  for (const merge of merges) {
    if (merge.row > region.bottom || merge.row + merge.rows - 1 < region.top) continue;
    if (merge.col > region.right || merge.col + merge.cols - 1 < region.left) continue;
    spans.set(`${merge.row},${merge.col}`, merge);
    for (let r = merge.row; r < merge.row + merge.rows; r++) {
      for (let c = merge.col; c < merge.col + merge.cols; c++) {
        if (r !== merge.row || c !== merge.col) covered.add(`${r},${c}`);
      }
    }
  }
  const rows: TableCell[][] = [];
  for (let r = region.top; r <= region.bottom; r++) {
    const cells: TableCell[] = [];
    for (let c = region.left; c <= region.right; c++) {
      if (covered.size > 0 && covered.has(`${r},${c}`)) continue;
      const cell: TableCell = { text: grid[r]?.[c] ?? '' };
      const merge = spans.size > 0 ? spans.get(`${r},${c}`) : undefined;
      if (merge) {
        const bottom = Math.min(region.bottom, merge.row + merge.rows - 1);
        const right = Math.min(region.right, merge.col + merge.cols - 1);
        if (right > c) cell.colspan = right - c + 1;
        if (bottom > r) cell.rowspan = bottom - r + 1;
      }
      cells.push(cell);
    }
    rows.push(cells);
  }
  return rows;
}
