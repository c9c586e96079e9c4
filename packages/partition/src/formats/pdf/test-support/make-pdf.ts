import PDFDocument from 'pdfkit';

/**
 * PDF fixtures written with pdfkit from a small description, so tests and the evaluation know exactly
 * what each page holds. Coordinates are pdfkit's: points from the top-left.
 */

export type PdfBlock =
  | { kind: 'heading'; text: string; size: number; x?: number; y?: number; width?: number }
  | { kind: 'paragraph'; text: string; size?: number; x?: number; y?: number; width?: number; bold?: boolean }
  | {
      kind: 'bullets';
      items: string[];
      numbered?: boolean;
      size?: number;
      x?: number;
      y?: number;
      width?: number;
    }
  | {
      kind: 'table';
      rows: string[][];
      ruled: boolean;
      x?: number;
      y?: number;
      columnWidths: number[];
      rowHeight?: number;
      size?: number;
      boldHeader?: boolean;
      /** Let cell text wrap inside the cell (rowHeight must leave room). */
      wrap?: boolean;
    }
  | { kind: 'image'; png: Uint8Array; x: number; y: number; width: number; height: number }
  | {
      kind: 'text';
      text: string;
      x: number;
      y: number;
      size?: number;
      width?: number;
      bold?: boolean;
      align?: 'left' | 'center' | 'right';
    };

export interface PdfPage {
  blocks: PdfBlock[];
  /** Running header/footer text; `{page}` and `{pages}` are replaced. */
  header?: string;
  footer?: string;
  size?: [number, number];
}

export interface MakePdfOptions {
  userPassword?: string;
  ownerPassword?: string;
  /** Draw every character twice, 0.4pt apart ("fake bold"), in paragraphs. */
  fakeBold?: boolean;
  compress?: boolean;
}

const MARGIN = 72;

export function makePdf(pages: PdfPage[], options: MakePdfOptions = {}): Promise<Uint8Array> {
  const document = new PDFDocument({
    autoFirstPage: false,
    compress: options.compress ?? false,
    ...(options.userPassword !== undefined || options.ownerPassword !== undefined
      ? {
          userPassword: options.userPassword,
          ownerPassword: options.ownerPassword,
          permissions: { printing: 'lowResolution', copying: false, modifying: false },
          pdfVersion: '1.7' as const,
        }
      : {}),
    info: { CreationDate: new Date(0), ModDate: new Date(0) },
  });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve) =>
    document.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks)))),
  );
  pages.forEach((page, index) => {
    // No page margins for pdfkit itself: text placed near the bottom must not start a new page.
    document.addPage({ size: page.size ?? 'LETTER', margin: 0 });
    const pageWidth = document.page.width;
    const pageHeight = document.page.height;
    const fill = (text: string | undefined) =>
      text?.replace('{page}', String(index + 1)).replace('{pages}', String(pages.length));
    if (page.header) {
      document
        .font('Helvetica')
        .fontSize(9)
        .text(fill(page.header)!, MARGIN, 30, {
          width: pageWidth - 2 * MARGIN,
          align: 'center',
          lineBreak: false,
        });
    }
    if (page.footer) {
      document
        .font('Helvetica')
        .fontSize(9)
        .text(fill(page.footer)!, MARGIN, pageHeight - 40, {
          width: pageWidth - 2 * MARGIN,
          align: 'center',
          lineBreak: false,
        });
    }
    let y = MARGIN;
    for (const block of page.blocks) y = drawBlock(document, block, y, pageWidth, options);
  });
  document.end();
  return done;
}

function drawBlock(
  document: PDFKit.PDFDocument,
  block: PdfBlock,
  y: number,
  pageWidth: number,
  options: MakePdfOptions,
): number {
  const width = ('width' in block && block.width) || pageWidth - 2 * MARGIN;
  const x = ('x' in block && block.x) || MARGIN;
  const top = ('y' in block && block.y) || y;
  switch (block.kind) {
    case 'heading':
      document.font('Helvetica-Bold').fontSize(block.size).text(block.text, x, top, { width });
      return document.y + block.size * 0.6;
    case 'paragraph': {
      const size = block.size ?? 11;
      document.font(block.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
      if (options.fakeBold) {
        document.text(block.text, x + 0.4, top, { width, lineGap: 2 });
        document.text(block.text, x, top, { width, lineGap: 2 });
      } else {
        document.text(block.text, x, top, { width, lineGap: 2 });
      }
      return document.y + size;
    }
    case 'text':
      document.font(block.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(block.size ?? 11);
      document.text(block.text, block.x, block.y, {
        width: block.width ?? 400,
        align: block.align ?? 'left',
        lineBreak: Boolean(block.width),
      });
      return y;
    case 'bullets': {
      const size = block.size ?? 11;
      let cursor = top;
      block.items.forEach((item, i) => {
        document.font('Helvetica').fontSize(size);
        const marker = block.numbered ? `${i + 1}.` : '•';
        document.text(marker, x, cursor, { width: 18, lineBreak: false });
        document.text(item, x + 18, cursor, { width: width - 18, lineGap: 2 });
        cursor = document.y + size * 0.3;
      });
      return cursor + size * 0.6;
    }
    case 'table': {
      const size = block.size ?? 10;
      const rowHeight = block.rowHeight ?? size * 2;
      const tableWidth = block.columnWidths.reduce((a, b) => a + b, 0);
      block.rows.forEach((row, r) => {
        let cellX = x;
        row.forEach((cell, c) => {
          const bold = block.boldHeader && r === 0;
          document.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
          const cellTop = block.wrap ? top + r * rowHeight + 4 : top + r * rowHeight + (rowHeight - size) / 2;
          document.text(cell, cellX + 4, cellTop, {
            width: block.columnWidths[c]! - 8,
            lineBreak: Boolean(block.wrap),
          });
          cellX += block.columnWidths[c]!;
        });
      });
      if (block.ruled) {
        document.lineWidth(0.8);
        for (let r = 0; r <= block.rows.length; r++) {
          document
            .moveTo(x, top + r * rowHeight)
            .lineTo(x + tableWidth, top + r * rowHeight)
            .stroke();
        }
        let lineX = x;
        for (let c = 0; c <= block.columnWidths.length; c++) {
          document
            .moveTo(lineX, top)
            .lineTo(lineX, top + block.rows.length * rowHeight)
            .stroke();
          lineX += block.columnWidths[c] ?? 0;
        }
      }
      return top + block.rows.length * rowHeight + size * 1.5;
    }
    case 'image':
      document.image(Buffer.from(block.png), block.x, block.y, { width: block.width, height: block.height });
      return Math.max(y, block.y + block.height + 12);
  }
}
