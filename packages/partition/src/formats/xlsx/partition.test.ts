import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { type Element, partition, ServiceError } from '../../index.js';
import { fakeEncryptedOffice } from '../ooxml/test-support.js';
import { findRegions, SparseSheet } from './regions.js';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sampleWorkbook(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sales = workbook.addWorksheet('Sales');
  sales.getCell('A1').value = 'Regional Sales';
  sales.addRow([]);
  sales.getRow(2).values = ['Region', 'Q1', 'Q2'];
  sales.getRow(3).values = ['North', 10, 20];
  sales.getRow(4).values = ['South', 30, 40];
  // An empty row, then a second table with a value merged across two columns.
  sales.getRow(6).values = ['Costs', 'Jan', 'Feb'];
  sales.getRow(7).values = ['Rent', 5, ''];
  sales.mergeCells('B7:C7');
  const notes = workbook.addWorksheet('Notes');
  notes.getCell('B2').value = 'All figures are in thousands of euros and were audited in March.';
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const summary = (elements: Element[]) =>
  elements.map((e) => [e.type, e.text, e.metadata.page_number, e.metadata.page_name]);

describe('xlsx partitioner', () => {
  it('makes one page per sheet and one Table per region, with titles above tables', async () => {
    const elements = await partition({ data: await sampleWorkbook(), filename: 'book.xlsx' });
    expect(summary(elements)).toEqual([
      ['Title', 'Regional Sales', 1, 'Sales'],
      ['Table', 'Region Q1 Q2\nNorth 10 20\nSouth 30 40', 1, 'Sales'],
      ['Table', 'Costs Jan Feb\nRent 5', 1, 'Sales'],
      ['NarrativeText', 'All figures are in thousands of euros and were audited in March.', 2, 'Notes'],
    ]);
    const costs = elements.find((e) => e.text.startsWith('Costs'))!;
    expect(costs.metadata.text_as_html).toBe(
      '<table><tbody><tr><td>Costs</td><td>Jan</td><td>Feb</td></tr><tr><td>Rent</td><td colspan="2">5</td></tr></tbody></table>',
    );
  });

  it('finds regions separated by empty rows and merges side-by-side blocks', () => {
    const grid = [
      ['a', 'b', '', 'x'],
      ['c', 'd', '', 'y'],
      ['', '', '', ''],
      ['', 'e', 'f', ''],
    ];
    const sheet = new SparseSheet();
    grid.forEach((row, r) => {
      row.forEach((text, c) => {
        sheet.set(r, c, text);
      });
    });
    expect(findRegions(sheet)).toEqual([
      { top: 0, left: 0, bottom: 1, right: 3 },
      { top: 3, left: 1, bottom: 3, right: 2 },
    ]);
  });

  it('gives typed errors for encrypted, truncated and empty workbooks', async () => {
    const code = async (data: Uint8Array, contentType?: string) => {
      try {
        await partition({ data, filename: 'x.xlsx' }, contentType ? { content_type: contentType } : {});
      } catch (error) {
        return error instanceof ServiceError ? error.code : 'untyped';
      }
      return 'no error';
    };
    const book = await sampleWorkbook();
    expect(await code(fakeEncryptedOffice())).toBe('encrypted_document');
    expect(await code(book.subarray(0, 1500), XLSX_MIME)).toBe('corrupt_document');
    expect(await code(new Uint8Array(0), XLSX_MIME)).toBe('corrupt_document');
  });

  it('reads legacy .xls workbooks', async () => {
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      workbook,
      XLSX.utils.aoa_to_sheet([['Budget 2024'], [], ['Item', 'Cost'], ['Rent', 1200], ['Power', 300]]),
      'Budget',
    );
    const data = new Uint8Array(XLSX.write(workbook, { type: 'buffer', bookType: 'biff8' }) as Buffer);
    const elements = await partition({ data, filename: 'budget.xls' });
    expect(summary(elements)).toEqual([
      ['Title', 'Budget 2024', 1, 'Budget'],
      ['Table', 'Item Cost\nRent 1200\nPower 300', 1, 'Budget'],
    ]);
    expect(elements[0]!.metadata.filetype).toBe('application/vnd.ms-excel');
  });

  it('stays sparse when a sheet claims the whole grid for a few cells', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sparse');
    sheet.getCell('A1').value = 'Start';
    sheet.getCell('B1').value = 'here';
    const { unzipSync, zipSync, strFromU8, strToU8 } = await import('fflate');
    const parts = unzipSync(new Uint8Array(await workbook.xlsx.writeBuffer()));
    // The used range says A1:XFD1048576 and a cell sits in the very last one: 17 billion grid cells.
    parts['xl/worksheets/sheet1.xml'] = strToU8(
      strFromU8(parts['xl/worksheets/sheet1.xml']!)
        .replace(/<dimension ref="[^"]*"\/>/, '<dimension ref="A1:XFD1048576"/>')
        .replace(
          '</sheetData>',
          '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>End</t></is></c></row></sheetData>',
        ),
    );
    const elements = await partition({ data: zipSync(parts), filename: 'sparse.xlsx' });
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ['Table', 'Start here'],
      ['Title', 'End'],
    ]);
  });
});
