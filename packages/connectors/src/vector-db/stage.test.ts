import type { Element } from '@docsvc/partition';
import { DataType } from '@zilliz/milvus2-sdk-node';
import { describe, expect, it } from 'vitest';
import type { RecordDescriptor } from '../contract.js';
import { ConnectorError } from '../errors.js';
import { minimalFields } from './schema.js';
import { stageRecord } from './stage.js';
import { layoutOf, specLayout } from './test-support/layout.js';

const record: RecordDescriptor = {
  identifier: '/data/in/report.pdf',
  version: '1',
  display_name: 'report.pdf',
  rel_path: 'report.pdf',
  data_source: { url: 'file:///data/in/report.pdf', record_locator: { protocol: 'file' } },
};

function element(text: string, extra: Partial<Element> = {}, id = `id-${text.slice(0, 8)}`): Element {
  return { type: 'NarrativeText', element_id: id, text, metadata: {}, embeddings: [1, 0, 0, 0], ...extra };
}

function stageError(run: () => unknown): ConnectorError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConnectorError) return error;
    throw error;
  }
  throw new Error('expected a ConnectorError');
}

describe('stageRecord: flattening and type conversion (SPEC 2.7 extended schema)', () => {
  const full: Element = {
    type: 'Title',
    element_id: 'e1',
    text: 'Quarterly report',
    embeddings: [0.1, 0.2, 0.3, 0.4],
    metadata: {
      is_extracted: true,
      coordinates: {
        points: [
          [10, 20],
          [10, 40],
          [200, 40],
          [200, 20],
        ],
        system: 'PointSpace',
        layout_width: 595.28,
        layout_height: 841.89,
      },
      filetype: 'application/pdf',
      languages: ['eng', 'fra'],
      page_number: 3,
      image_mime_type: 'image/png',
      filename: 'report.pdf',
      data_source: {
        url: 'file:///data/in/report.pdf',
        record_locator: { protocol: 'file', remote_file_path: '/data/in/report.pdf' },
        date_processed: '2025-01-01T00:00:00Z',
      },
      entities: {
        items: [{ entity: 'ACME', type: 'ORGANIZATION' }],
        relationships: [{ from: 'ACME', relationship: 'based_in', to: 'Paris' }],
      },
      parent_id: 'p0',
    },
  };

  it('writes every SPEC 2.7 field with its type, and nothing outside the schema', () => {
    const staged = stageRecord([full], record, specLayout(), 'error');
    expect(staged.rows).toHaveLength(1);
    const row = staged.rows[0]!;
    expect(row).toEqual({
      element_id: expect.stringMatching(/^e1:[0-9a-f]{32}$/),
      embeddings: [0.1, 0.2, 0.3, 0.4],
      record_id: '/data/in/report.pdf',
      text: 'Quarterly report',
      type: 'Title',
      is_extracted: 'true',
      coordinates_points: [
        [10, 20],
        [10, 40],
        [200, 40],
        [200, 20],
      ],
      coordinates_system: 'PointSpace',
      coordinates_layout_width: 595,
      coordinates_layout_height: 842,
      filetype: 'application/pdf',
      languages: ['eng', 'fra'],
      page_number: 3,
      image_mime_type: 'image/png',
      filename: 'report.pdf',
      data_source_url: 'file:///data/in/report.pdf',
      data_source_record_locator_protocol: 'file',
      data_source_record_locator_remote_file_path: '/data/in/report.pdf',
      entities_items: [{ entity: 'ACME', type: 'ORGANIZATION' }],
      entities_relationships: [{ from: 'ACME', relationship: 'based_in', to: 'Paris' }],
    });
    expect(staged.warnings).toEqual([]);
  });

  it('gives nullable fields null when the element lacks them', () => {
    const [row] = stageRecord([element('plain')], record, specLayout(), 'error').rows;
    expect(row!.page_number).toBeNull();
    expect(row!.languages).toBeNull();
    expect(row!.coordinates_points).toBeNull();
    expect(row!.is_extracted).toBeNull();
  });

  it('writes is_extracted=false as "false"', () => {
    const [row] = stageRecord(
      [element('x', { metadata: { is_extracted: false } })],
      record,
      specLayout(),
      'error',
    ).rows;
    expect(row!.is_extracted).toBe('false');
  });

  it('puts metadata without a field into dynamic fields when the collection has them, never blobs', () => {
    const warnings: string[] = [];
    const layout = layoutOf('dyn', minimalFields(4), true);
    const staged = stageRecord(
      [
        element('x', {
          metadata: { parent_id: 'p0', page_number: 2, image_base64: 'AAAA', languages: ['eng'] },
        }),
      ],
      record,
      layout,
      'error',
    );
    warnings.push(...staged.warnings);
    const row = staged.rows[0]!;
    expect(row.parent_id).toBe('p0');
    expect(row.page_number).toBe(2);
    expect(row.languages).toEqual(['eng']);
    expect(row.data_source_record_locator_protocol).toBeUndefined(); // not in this element's metadata
    expect(row.image_base64).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/image_base64: left out/);
  });

  it('drops metadata without a field when the collection has no dynamic fields', () => {
    const row = stageRecord(
      [element('x', { metadata: { parent_id: 'p0' } })],
      record,
      layoutOf('min', minimalFields(4)),
      'error',
    ).rows[0]!;
    expect(Object.keys(row).sort()).toEqual(['element_id', 'embeddings', 'record_id', 'text', 'type']);
  });
});

describe('stageRecord: primary keys', () => {
  it('keeps element ids readable, apart per record and per repetition, and the same on every run', () => {
    const elements = [element('Header', {}, 'h'), element('Body', {}, 'b'), element('Header', {}, 'h')];
    const first = stageRecord(elements, record, specLayout(), 'error').rows.map((r) => r.element_id);
    const again = stageRecord(elements, record, specLayout(), 'error').rows.map((r) => r.element_id);
    const other = stageRecord(
      elements,
      { ...record, identifier: '/data/in/other.pdf' },
      specLayout(),
      'error',
    );
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(3);
    expect(first.map((key) => key.split(':')[0])).toEqual(['h', 'b', 'h']);
    for (const key of other.rows.map((r) => r.element_id)) expect(first).not.toContain(key);
  });
});

describe('stageRecord: VARCHAR limits (SPEC 7.2)', () => {
  const narrowText = () =>
    layoutOf('narrow', [
      ...minimalFields(4).filter((f) => f.name !== 'text'),
      { name: 'text', data_type: DataType.VarChar, max_length: 10 },
    ]);

  it('fails the record naming the record, element, field, length and limit under varchar_overflow=error', () => {
    const error = stageError(() =>
      stageRecord(
        [element('short'), element('much too long a text', {}, 'long-one')],
        record,
        narrowText(),
        'error',
      ),
    );
    expect(error.stage).toBe('schema');
    expect(error.message).toMatch(/record "report\.pdf"/);
    expect(error.message).toMatch(
      /element long-one \(#2\): field "text": the value is 20 bytes long, more than the 10/,
    );
    expect(error.message).toMatch(/Nothing of this record was written/);
  });

  it('counts UTF-8 bytes, as Milvus does', () => {
    // 6 characters, 12 bytes: fits a character count of 10, not Milvus's byte count.
    expect(() => stageRecord([element('éééééé')], record, narrowText(), 'error')).toThrow(/12 bytes long/);
  });

  it('cuts at a character boundary under truncate, never inside a surrogate pair, and warns', () => {
    const staged = stageRecord(
      [element('abcdefgh😀xyz'), element('éééééé')],
      record,
      narrowText(),
      'truncate',
    );
    // "abcdefgh" is 8 bytes; the emoji needs 4 more: it is dropped whole.
    expect(staged.rows[0]!.text).toBe('abcdefgh');
    expect(staged.rows[1]!.text).toBe('ééééé');
    expect(staged.warnings).toEqual([
      expect.stringMatching(/^text: values cut to 10 bytes .*\(2 elements, first: element/),
    ]);
  });

  it('never cuts record_id: a cut id could merge two records', () => {
    const long = { ...record, identifier: `/${'d'.repeat(300)}/file.txt` };
    expect(() => stageRecord([element('x')], long, specLayout(), 'truncate')).toThrow(
      /field "record_id": the value is 310 bytes long, more than the 200 .*never cut/,
    );
  });

  it('leaves a blob out (null) rather than cutting it, and fails when its field is required', () => {
    const blobField = (nullable: boolean) =>
      layoutOf('blob', [
        ...minimalFields(4),
        { name: 'image_base64', data_type: DataType.VarChar, max_length: 16, nullable },
      ]);
    const image = element('figure', { metadata: { image_base64: 'A'.repeat(40) } });
    const staged = stageRecord([image], record, blobField(true), 'truncate');
    expect(staged.rows[0]!.image_base64).toBeNull();
    expect(staged.warnings.join()).toMatch(/image_base64: left empty because its value is 40 bytes long/);
    expect(() => stageRecord([image], record, blobField(false), 'truncate')).toThrow(/never cut/);
    expect(() => stageRecord([image], record, blobField(true), 'error')).toThrow(/image_base64.*40 bytes/);
  });

  it('checks ARRAY capacity and element length', () => {
    const languages = Array.from({ length: 12 }, (_, i) => `l${i}`);
    expect(() =>
      stageRecord([element('x', { metadata: { languages } })], record, specLayout(), 'error'),
    ).toThrow(/12 items, more than the capacity 10 of ARRAY "languages"/);
    const cut = stageRecord([element('x', { metadata: { languages } })], record, specLayout(), 'truncate');
    expect(cut.rows[0]!.languages).toEqual(languages.slice(0, 10));
    expect(() =>
      stageRecord(
        [element('x', { metadata: { languages: ['x'.repeat(65)] } })],
        record,
        specLayout(),
        'error',
      ),
    ).toThrow(/65 bytes long, more than the 64/);
  });

  it('limits JSON values to 64 KiB', () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ entity: `entity number ${i}`, type: 'THING' }));
    const big = element('x', { metadata: { entities: { items, relationships: [] } } });
    expect(() => stageRecord([big], record, specLayout(), 'error')).toThrow(
      /JSON is \d+ bytes, more than the 65536/,
    );
    const staged = stageRecord([big], record, specLayout(), 'truncate');
    expect(staged.rows[0]!.entities_items).toBeNull();
    expect(staged.rows[0]!.entities_relationships).toEqual([]);
  });

  it('fits the dynamic fields into 64 KiB by leaving the largest out under truncate', () => {
    const layout = layoutOf('dyn', minimalFields(4), true);
    const big = element('x', { metadata: { text_as_html: `<p>${'x'.repeat(70_000)}</p>`, parent_id: 'p' } });
    expect(() => stageRecord([big], record, layout, 'error')).toThrow(/dynamic fields take \d+ bytes/);
    const staged = stageRecord([big], record, layout, 'truncate');
    expect(staged.rows[0]!.text_as_html).toBeUndefined();
    expect(staged.rows[0]!.parent_id).toBe('p');
  });
});

describe('stageRecord: vectors', () => {
  it('leaves out blank elements without embeddings, with a warning', () => {
    const pageBreak: Element = { type: 'PageBreak', element_id: 'pb', text: '', metadata: {} };
    const staged = stageRecord([element('a'), pageBreak], record, specLayout(), 'error');
    expect(staged.rows).toHaveLength(1);
    expect(staged.skipped).toBe(1);
    expect(staged.warnings).toEqual(['1 element(s) with blank text and no embeddings left out']);
  });

  it('fails a record whose elements have text but no embeddings, naming them', () => {
    const bare: Element = { type: 'NarrativeText', element_id: 'no-vector', text: 'words', metadata: {} };
    expect(() => stageRecord([element('a'), bare], record, specLayout(), 'error')).toThrow(
      /1 of 2 elements have text but no embeddings \(no-vector\).*embedding_provider/,
    );
  });

  it('fails on a dimension other than the collection’s, and on values that are not finite', () => {
    expect(() =>
      stageRecord([element('a', { embeddings: [1, 2, 3] })], record, specLayout(), 'error'),
    ).toThrow(/the embedding has 3 dimensions, the collection's FLOAT_VECTOR has 4/);
    expect(() =>
      stageRecord([element('a', { embeddings: [1, Number.NaN, 0, 0] })], record, specLayout(), 'error'),
    ).toThrow(/not a finite number/);
  });
});

describe('stageRecord: required fields', () => {
  it('fails a record whose element lacks a non-nullable field without default', () => {
    const layout = layoutOf('strict', [
      ...minimalFields(4),
      { name: 'page_number', data_type: DataType.Int32 },
    ]);
    expect(() => stageRecord([element('x')], record, layout, 'error')).toThrow(
      /field "page_number": no value, and the field is neither nullable nor has a default/,
    );
    expect(
      stageRecord([element('x', { metadata: { page_number: 1 } })], record, layout, 'error').rows,
    ).toHaveLength(1);
  });

  it('refuses a value its field cannot hold', () => {
    const layout = layoutOf('typed', [
      ...minimalFields(4),
      { name: 'page_number', data_type: DataType.Int8, nullable: true },
    ]);
    expect(() =>
      stageRecord([element('x', { metadata: { page_number: 300 } })], record, layout, 'error'),
    ).toThrow(/a number 300 cannot be stored in Int8 "page_number"/);
  });
});
