import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';
import { declaredMarkupEncoding } from './decode-markup.js';

const run = (data: Uint8Array, options = {}, filename = 'page.html') =>
  partition({ data, filename }, options);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('HTML encodings', () => {
  const body = '<p>Café crème, naïve façade: 15 €.</p>';

  it('reads the charset from <meta charset> and from http-equiv', async () => {
    for (const head of [
      '<meta charset="windows-1252">',
      '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15">',
    ]) {
      const encoding = head.includes('1252') ? 'windows-1252' : 'iso-8859-15';
      const data = iconv.encode(`<html><head>${head}</head><body>${body}</body></html>`, encoding);
      const [element] = await run(data);
      expect(element!.text).toBe('Café crème, naïve façade: 15 €.');
    }
  });

  it('reads the XML declaration of XHTML', async () => {
    const data = iconv.encode(
      `<?xml version="1.0" encoding="ISO-8859-1"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>Grüße aus Köln</p></body></html>`,
      'latin1',
    );
    expect((await run(data))[0]!.text).toBe('Grüße aus Köln');
  });

  it('lets a BOM win over the declaration, and the declaration over options.encoding', async () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode('<meta charset="windows-1252"><p>Ünïcödé</p>', 'utf-16le'),
    ]);
    expect((await run(utf16))[0]!.text).toBe('Ünïcödé');
    const declared = iconv.encode('<meta charset="windows-1252"><p>Ünïcödé</p>', 'windows-1252');
    expect((await run(declared, { encoding: 'utf-16' }))[0]!.text).toBe('Ünïcödé');
  });

  it('uses options.encoding, then detection, when nothing is declared', async () => {
    const data = iconv.encode('<p>Žluťoučký kůň úpěl ďábelské ódy</p>', 'windows-1250');
    // content_type skips type sniffing, which decodes a sample without options.encoding.
    const options = { encoding: 'windows-1250', content_type: 'text/html' };
    expect((await run(data, options))[0]!.text).toBe('Žluťoučký kůň úpěl ďábelské ódy');
    const cp1252 = iconv.encode(
      '<p>Ein schöner Tag in München, sagte er während des Essens.</p>',
      'windows-1252',
    );
    expect((await run(cp1252))[0]!.text).toBe('Ein schöner Tag in München, sagte er während des Essens.');
  });

  it('ignores a UTF-8 declaration over bytes that are not UTF-8', async () => {
    const data = iconv.encode(
      '<meta charset="utf-8"><p>Déjà vu à la française, très élégant.</p>',
      'windows-1252',
    );
    expect((await run(data))[0]!.text).toBe('Déjà vu à la française, très élégant.');
  });

  it('refuses an unknown options.encoding with invalid_encoding', async () => {
    await expect(run(utf8('<p>x</p>'), { encoding: 'no-such-encoding' })).rejects.toMatchObject({
      code: 'invalid_encoding',
    });
  });

  it('finds declarations only in markup', () => {
    expect(
      declaredMarkupEncoding(utf8('<meta content="text/html; charset=Shift_JIS" http-equiv="content-type">')),
    ).toBe('Shift_JIS');
    expect(declaredMarkupEncoding(utf8('<p>charset=utf-8</p>'))).toBeUndefined();
  });
});

describe('HTML through partition()', () => {
  it('fills filetype, ids and parent links for the page', async () => {
    const elements = await run(
      utf8('<h1>Guide</h1><p>This guide explains how the service works in detail.</p>'),
    );
    expect(elements.map((e) => e.type)).toEqual(['Title', 'NarrativeText']);
    expect(elements[1]!.metadata.parent_id).toBe(elements[0]!.element_id);
    expect(elements[0]!.metadata.filetype).toBe('text/html');
  });

  it('takes languages from <html lang> unless the caller gives them', async () => {
    const page = utf8('<html lang="fr"><body><p>Bonjour tout le monde, voici un texte.</p></body></html>');
    expect((await run(page))[0]!.metadata.languages).toEqual(['fra']);
    expect((await run(page, { languages: ['eng'] }))[0]!.metadata.languages).toEqual(['eng']);
  });

  it('returns no elements for an empty or whitespace-only file', async () => {
    expect(await run(new Uint8Array())).toEqual([]);
    expect(await run(utf8('  \n <html><body> </body></html>'))).toEqual([]);
  });

  it('refuses binary garbage with an .html name with a typed error', async () => {
    const garbage = new Uint8Array(4096).map((_, index) => (index * 7919) % 256);
    const error = await run(garbage).catch((caught: unknown) => caught);
    expect(['corrupt_document', 'unsupported_file_type']).toContain((error as { code: string }).code);
    // Given as HTML explicitly, the partitioner itself says the bytes are not HTML text.
    await expect(run(garbage, { content_type: 'text/html' })).rejects.toMatchObject({
      code: 'corrupt_document',
    });
  });

  it('reads invalid UTF-8 sequences without failing', async () => {
    const data = new Uint8Array([...utf8('<p>ok '), 0xc3, 0x28, 0xff, ...utf8(' end</p>')]);
    const [element] = await run(data);
    expect(element!.text.startsWith('ok')).toBe(true);
    expect(element!.text.endsWith('end')).toBe(true);
  });
});
