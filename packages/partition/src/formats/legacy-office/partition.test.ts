import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { afterEach, describe, expect, it } from 'vitest';
import { partition, ServiceError } from '../../index.js';
import { convertWithLibreOffice, findSoffice } from './convert.js';

const DOC_MIME = 'application/msword';

async function generatedDoc(): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Legacy Report', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('This paragraph was written to a binary Word file and read back again.'),
        ],
      },
    ],
  });
  const docx = new Uint8Array(await Packer.toBuffer(document));
  return convertWithLibreOffice(docx, 'docx', 'doc');
}

let legacyDoc: Promise<Uint8Array>;

describe('legacy office (doc, ppt)', () => {
  const saved = process.env.DOCSVC_SOFFICE;
  afterEach(() => {
    if (saved === undefined) delete process.env.DOCSVC_SOFFICE;
    else process.env.DOCSVC_SOFFICE = saved;
  });

  it('says how to install LibreOffice when it is missing', async () => {
    process.env.DOCSVC_SOFFICE = '/nonexistent/soffice';
    const ole = new Uint8Array(1024);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const error = await partition({ data: ole, filename: 'old.doc' }, { content_type: DOC_MIME }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe('converter_unavailable');
    expect(error.message).toMatch(/apt-get install libreoffice-writer-nogui/);
  });

  it('refuses empty and non-OLE input before converting', async () => {
    for (const data of [new Uint8Array(0), new TextEncoder().encode('plain text, not a doc')]) {
      const error = await partition({ data, filename: 'x.doc' }, { content_type: DOC_MIME }).catch((e) => e);
      expect(error.code).toBe('corrupt_document');
    }
  });

  it.skipIf(!findSoffice())(
    'converts a .doc with LibreOffice and keeps the original file type',
    async () => {
      legacyDoc = generatedDoc();
      const elements = await partition({ data: await legacyDoc, filename: 'report.doc' });
      expect(elements.map((e) => [e.type, e.text])).toEqual([
        ['Title', 'Legacy Report'],
        ['NarrativeText', 'This paragraph was written to a binary Word file and read back again.'],
      ]);
      expect(elements[0]!.metadata.filetype).toBe(DOC_MIME);
      // The same file under a time limit too short for LibreOffice to start: a typed timeout.
      const error = await partition(
        { data: await legacyDoc, filename: 'report.doc' },
        {},
        { limits: { documentTimeoutMs: 30 } },
      )
        .then(() => undefined)
        .catch((e) => e);
      expect(error?.code).toBe('timeout');
    },
    120_000,
  );
});
