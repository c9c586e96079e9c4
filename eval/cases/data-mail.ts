import iconv from 'iconv-lite';
import MailComposer from 'nodemailer/lib/mail-composer';
import { writeMsg } from '../../packages/partition/src/formats/msg/test-support/write-msg.js';
import type { CaseSource, EvalCase, ExpectedElement } from '../types.js';

/**
 * Data and mail formats written from known content: CSV/TSV tables in several dialects and encodings,
 * JSON and NDJSON (element JSON and plain records), e-mails with plain and HTML bodies and attachments
 * (built with nodemailer's MailComposer), and Outlook .msg files (the project's test writer).
 */

type Mail = ConstructorParameters<typeof MailComposer>[0];

const utf8 = (text: string) => new TextEncoder().encode(text);

// -- tables ---------------------------------------------------------------------------------------

const HARBOUR: string[][] = [
  ['Cargo', 'Tonnes 2023', 'Tonnes 2024', 'Notes'],
  ['Containers', '410', '468', 'New crane, east quay'],
  ['Bulk grain', '220', '205', 'Dry summer; lower harvest'],
  ['Vehicles', '95', '118', 'Two new routes'],
  ['Timber', '61', '64', ''],
];

const PEOPLE: string[][] = [
  ['Name', 'City', 'Role'],
  ['Zoë Ångström', 'Malmö', 'Größenplanung'],
  ['José Núñez', 'Cádiz', 'Señalización'],
  ['Chloé Lefèvre', 'Besançon', 'Cartographie'],
];

function tableElement(rows: string[][]): ExpectedElement {
  const text = rows
    .map((row) => row.filter((cell) => cell !== '').join(' '))
    .filter(Boolean)
    .join('\n');
  return { type: 'Table', text, cells: rows };
}

function quote(cell: string, delimiter: string): string {
  return cell.includes(delimiter) || cell.includes('"') || cell.includes('\n')
    ? `"${cell.replaceAll('"', '""')}"`
    : cell;
}

function delimited(rows: string[][], delimiter: string, newline = '\n'): string {
  return rows.map((row) => row.map((cell) => quote(cell, delimiter)).join(delimiter)).join(newline) + newline;
}

function tableCase(name: string, filename: string, data: Uint8Array, rows: string[][]): EvalCase {
  return { name, format: filename.split('.').pop()!, filename, data, expected: [tableElement(rows)] };
}

function tableCases(): EvalCase[] {
  const withBreaks = HARBOUR.map((row, index) =>
    index === 2 ? [row[0]!, row[1]!, row[2]!, 'Dry summer;\nlower harvest'] : row,
  );
  const titled = [['Harbour cargo', 'Harbour cargo', 'Harbour cargo', 'Harbour cargo'], ...HARBOUR];
  const titledCsv = `Harbour cargo,,,\n${delimited(HARBOUR, ',')}`;
  return [
    tableCase('csv/comma', 'harbour.csv', utf8(delimited(HARBOUR, ',')), HARBOUR),
    tableCase('csv/semicolon-quoted', 'harbour-eu.csv', utf8(delimited(HARBOUR, ';', '\r\n')), HARBOUR),
    tableCase('csv/pipe', 'harbour-pipe.csv', utf8(delimited(HARBOUR, '|')), HARBOUR),
    {
      ...tableCase('csv/quoted-line-breaks', 'breaks.csv', utf8(delimited(withBreaks, ',')), withBreaks),
      expected: [tableElement(withBreaks.map((row) => row.map((cell) => cell.replace('\n', ' '))))],
    },
    tableCase(
      'csv/utf16-bom',
      'people.csv',
      new Uint8Array(iconv.encode(delimited(PEOPLE, ','), 'utf-16le', { addBOM: true })),
      PEOPLE,
    ),
    tableCase(
      'csv/windows-1252',
      'people-1252.csv',
      new Uint8Array(iconv.encode(delimited(PEOPLE, ';'), 'windows-1252')),
      PEOPLE,
    ),
    {
      ...tableCase('csv/title-row', 'titled.csv', utf8(titledCsv), titled),
      expected: [{ type: 'Table', text: `Harbour cargo\n${tableElement(HARBOUR).text}`, cells: titled }],
    },
    tableCase('tsv/basic', 'harbour.tsv', utf8(delimited(HARBOUR, '\t')), HARBOUR),
  ];
}

// -- JSON ----------------------------------------------------------------------------------------

const OUTLINE: ExpectedElement[] = [
  { type: 'Title', text: 'Field Recorder Release Notes' },
  {
    type: 'NarrativeText',
    text: 'This release improves battery life and fixes two bugs in the export menu.',
  },
  { type: 'ListItem', text: 'Battery life is up by a fifth in continuous recording.' },
  { type: 'ListItem', text: 'Exports no longer stop at two gigabytes.' },
  { type: 'Title', text: 'Known Issues' },
  { type: 'NarrativeText', text: 'The clock drifts by a second per day when the recorder runs on battery.' },
];

function elementJson(): Record<string, unknown>[] {
  return OUTLINE.map((element, index) => ({
    type: element.type,
    element_id: `el-${index}`,
    text: element.text,
    metadata: { filename: 'notes.docx', languages: ['eng'], page_number: 1 },
  }));
}

const RECORDS = [
  { sku: 'GRD-8842', name: 'Garden Trowel', price: 12.5, in_stock: true },
  { sku: 'GRD-1290', name: 'Watering Can', price: 18, in_stock: false, tags: ['metal', 'outdoor'] },
  { sku: 'GRD-3317', name: 'Pruning Shears', price: 24.99, in_stock: true },
];

function jsonCases(): EvalCase[] {
  const records: ExpectedElement[] = RECORDS.map((record) => ({
    type: 'UncategorizedText',
    text: JSON.stringify(record, null, 2),
  }));
  const nested = { site: { name: 'North Quay', address: { city: 'Harbourtown', zip: '40112' } }, open: true };
  return [
    {
      name: 'json/elements',
      format: 'json',
      filename: 'notes.json',
      data: utf8(JSON.stringify(elementJson(), null, 2)),
      expected: OUTLINE,
    },
    {
      name: 'ndjson/elements',
      format: 'ndjson',
      filename: 'notes.ndjson',
      data: utf8(
        elementJson()
          .map((element) => JSON.stringify(element))
          .join('\n'),
      ),
      expected: OUTLINE,
    },
    {
      name: 'json/records',
      format: 'json',
      filename: 'products.json',
      data: utf8(JSON.stringify(RECORDS, null, 4)),
      expected: records,
    },
    {
      name: 'ndjson/records',
      format: 'ndjson',
      filename: 'products.ndjson',
      data: utf8(RECORDS.map((record) => JSON.stringify(record)).join('\n')),
      expected: records,
    },
    {
      name: 'json/object',
      format: 'json',
      filename: 'site.json',
      data: utf8(JSON.stringify(nested)),
      expected: [{ type: 'UncategorizedText', text: JSON.stringify(nested, null, 2) }],
    },
  ];
}

// -- e-mail --------------------------------------------------------------------------------------

const HEADERS: Mail = {
  from: 'Ann Smith <ann@harbour.example>',
  to: 'Port Team <team@harbour.example>',
  cc: 'Bob Jones <bob@harbour.example>',
  subject: 'Quarterly cargo review',
  date: new Date('2024-04-02T09:15:00Z'),
};

const BODY: ExpectedElement[] = [
  { type: 'UncategorizedText', text: 'Hello team,' },
  {
    type: 'NarrativeText',
    text: 'The cargo figures for the first quarter are in, and container traffic grew faster than we planned for.',
  },
  { type: 'Title', text: 'Next steps' },
  { type: 'ListItem', text: 'Confirm the crane maintenance window with both operators.' },
  { type: 'ListItem', text: 'Send the revised berth schedule to the shipping lines.' },
  {
    type: 'NarrativeText',
    text: 'Please send me your comments before Friday so that I can update the plan.',
  },
  { type: 'UncategorizedText', text: 'Best regards,' },
  { type: 'Title', text: 'Ann Smith' },
];

/** Plain-text rendering, hard-wrapped at 60 columns as mail clients do. */
function plainBody(elements: ExpectedElement[]): string {
  return elements
    .map((element) => {
      const text = element.type === 'ListItem' ? `- ${element.text}` : element.text;
      return text.replace(/(.{1,60})(\s|$)/g, '$1\n').trim();
    })
    .join('\n\n');
}

function htmlBody(elements: ExpectedElement[]): string {
  const parts: string[] = [];
  let list = false;
  for (const element of elements) {
    if (element.type === 'ListItem' && !list) parts.push('<ul>');
    if (element.type !== 'ListItem' && list) parts.push('</ul>');
    list = element.type === 'ListItem';
    if (element.type === 'Table') {
      const rows = element.cells!.map(
        (row, index) =>
          `<tr>${row.map((cell) => (index === 0 ? `<th>${cell}</th>` : `<td>${cell}</td>`)).join('')}</tr>`,
      );
      parts.push(`<table>${rows.join('')}</table>`);
    } else if (element.type === 'Title') parts.push(`<h3>${element.text}</h3>`);
    else if (element.type === 'ListItem') parts.push(`<li>${element.text}</li>`);
    else parts.push(`<p>${element.text}</p>`);
  }
  if (list) parts.push('</ul>');
  return `<html><body>${parts.join('\n')}</body></html>`;
}

async function compose(mail: Mail): Promise<Uint8Array> {
  return new Uint8Array(await new MailComposer(mail).compile().build());
}

async function mailCases(): Promise<EvalCase[]> {
  const small = [
    ['Cargo', 'Q1 2024'],
    ['Containers', '121'],
    ['Vehicles', '31'],
  ];
  const withTable: ExpectedElement[] = [
    ...BODY.slice(0, 2),
    { type: 'Table', text: 'Cargo Q1 2024\nContainers 121\nVehicles 31', cells: small },
    ...BODY.slice(2),
  ];
  const attachmentText =
    'The berth schedule changes on the first of May. Ships longer than two hundred metres use the east quay.';
  const plain = await compose({ ...HEADERS, text: plainBody(BODY) });
  const html = await compose({ ...HEADERS, text: plainBody(BODY), html: htmlBody(withTable) });
  const attachments = await compose({
    ...HEADERS,
    text: plainBody(BODY),
    attachments: [
      { filename: 'schedule.txt', content: attachmentText },
      { filename: 'cargo.csv', content: delimited(HARBOUR, ',') },
    ],
  });
  // UTF-8 content whose part says ISO-8859-1 (a common mislabel): the reader must repair it.
  const accented = BODY.map((element, index) =>
    index === 0 ? { ...element, text: 'Hello team – café crew,' } : element,
  );
  const mislabelled = Buffer.from(
    new TextDecoder()
      .decode(await compose({ ...HEADERS, text: plainBody(accented) }))
      .replace(/charset=utf-8/i, 'charset=iso-8859-1'),
    'latin1',
  );
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from(new TextDecoder().decode(plain), 'utf16le'),
  ]);
  return [
    { name: 'eml/plain-wrapped', format: 'eml', filename: 'review.eml', data: plain, expected: BODY },
    {
      name: 'eml/html-with-table',
      format: 'eml',
      filename: 'review-html.eml',
      data: html,
      expected: withTable,
    },
    {
      name: 'eml/attachments',
      format: 'eml',
      filename: 'review-files.eml',
      data: attachments,
      expected: [...BODY, { type: 'NarrativeText', text: attachmentText }, tableElement(HARBOUR)],
    },
    {
      name: 'eml/utf16-message',
      format: 'eml',
      filename: 'review-u16.eml',
      data: new Uint8Array(utf16),
      expected: BODY,
    },
    {
      name: 'eml/mislabelled-charset',
      format: 'eml',
      filename: 'review-latin1.eml',
      data: new Uint8Array(mislabelled),
      expected: accented,
    },
    {
      name: 'msg/plain-and-attachment',
      format: 'msg',
      filename: 'review.msg',
      data: writeMsg({
        subject: 'Quarterly cargo review',
        senderName: 'Ann Smith',
        senderEmail: 'ann@harbour.example',
        body: plainBody(BODY).replaceAll('\n', '\r\n'),
        recipients: [{ name: 'Port Team', email: 'team@harbour.example', type: 'to' }],
        attachments: [{ filename: 'schedule.txt', data: utf8(attachmentText), mimeType: 'text/plain' }],
      }),
      expected: [...BODY, { type: 'NarrativeText', text: attachmentText }],
    },
    {
      name: 'msg/html',
      format: 'msg',
      filename: 'review-html.msg',
      data: writeMsg({ subject: 'Quarterly cargo review', body: plainBody(BODY), html: htmlBody(withTable) }),
      expected: withTable,
    },
  ];
}

export const source: CaseSource = {
  area: 'data-mail',
  async cases() {
    return [...tableCases(), ...jsonCases(), ...(await mailCases())];
  },
};
