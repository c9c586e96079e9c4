import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText, looksLikeText, repairMojibake } from './decode.js';

const bytes = (text: string, encoding: string, addBOM = false) =>
  new Uint8Array(iconv.encode(text, encoding, { addBOM }));

describe('decodeText', () => {
  const french = 'Le café de Zoë Ångström est à Malmö, près de la forêt.';

  it.each([
    ['utf-8', bytes(french, 'utf-8'), 'utf-8'],
    ['utf-8 with BOM', bytes(french, 'utf-8', true), 'utf-8'],
    ['utf-16le with BOM', bytes(french, 'utf-16le', true), 'utf-16le'],
    ['utf-16be with BOM', bytes(french, 'utf-16be', true), 'utf-16be'],
    ['utf-16le without BOM', bytes(french, 'utf-16le'), 'utf-16le'],
    ['utf-16be without BOM', bytes(french, 'utf-16be'), 'utf-16be'],
    ['utf-32le with BOM', bytes(french, 'utf-32le', true), 'utf-32le'],
    ['windows-1252', bytes(french, 'windows-1252'), 'windows-1252'],
  ])('reads %s', (_name, data, encoding) => {
    const decoded = decodeText(data);
    expect(decoded.text.replace(/^\uFEFF/, '')).toBe(french);
    expect(decoded.encoding).toBe(encoding);
  });

  it('keeps a confident non-Western guess', () => {
    const russian = 'Все люди рождаются свободными и равными в своем достоинстве и правах. '.repeat(4);
    expect(decodeText(bytes(russian, 'koi8-r')).text).toBe(russian);
    const japanese =
      'すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。'.repeat(3);
    expect(decodeText(bytes(japanese, 'shift_jis')).text).toBe(japanese);
  });

  it('uses an explicit encoding, and refuses unknown names and invalid UTF-8', () => {
    expect(decodeText(bytes('Grüße', 'iso-8859-15'), 'iso-8859-15').text).toBe('Grüße');
    expect(() => decodeText(bytes('x', 'utf-8'), 'klingon')).toThrow(
      expect.objectContaining({ code: 'invalid_encoding' }),
    );
    expect(() => decodeText(new Uint8Array([0xc3, 0x28]), 'utf-8')).toThrow(
      expect.objectContaining({ code: 'invalid_encoding' }),
    );
  });
});

describe('decodeText: legacy encodings never fail without an explicit encoding', () => {
  const czech =
    'Všichni lidé se rodí svobodní a sobě rovní co do důstojnosti a práv. Jsou nadáni rozumem a ' +
    'svědomím a mají spolu jednat v duchu bratrství. Příliš žluťoučký kůň úpěl ďábelské ódy.';

  it('reads Czech windows-1250 and ISO-8859-2', () => {
    expect(decodeText(bytes(czech, 'windows-1250'))).toEqual({ text: czech, encoding: 'windows-1250' });
    expect(decodeText(bytes(czech, 'iso-8859-2'))).toEqual({ text: czech, encoding: 'iso-8859-2' });
  });

  it('finds the encoding of a file whose first 256 KiB are plain ASCII', () => {
    // Statistical detection on the head alone says "ASCII", which the later bytes then fail.
    const text = `${'The quick brown fox jumps over the lazy dog.\n'.repeat(7000)}\n${czech}\n`;
    const decoded = decodeText(bytes(text, 'windows-1250'));
    expect(decoded.encoding).toBe('windows-1250');
    expect(decoded.text.endsWith(`${czech}\n`)).toBe(true);
  });

  it('never takes a Unicode or ASCII guess for bytes that are not Unicode', () => {
    // Two bytes that chardet calls UTF-32LE; one accented letter it calls nothing in particular.
    expect(decodeText(bytes('xš', 'windows-1250')).text).toBe('xš');
    expect(decodeText(bytes('Dobrý den', 'windows-1250')).text).toBe('Dobrý den');
  });

  it('decodes any bytes without throwing when no encoding is given', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (data) => {
        const decoded = decodeText(data);
        expect(typeof decoded.text).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('honours an explicit legacy encoding and refuses only wrong explicit ones', () => {
    expect(decodeText(bytes(czech, 'windows-1250'), 'cp1250').text).toBe(czech);
    expect(decodeText(bytes(czech, 'windows-1250'), 'windows-1250').encoding).toBe('windows-1250');
    expect(() => decodeText(bytes(czech, 'windows-1250'), 'utf-8')).toThrow(
      expect.objectContaining({ code: 'invalid_encoding' }),
    );
  });
});

describe('looksLikeText with a given encoding', () => {
  it('judges the decoded text, so BOM-less UTF-16 in any script is text', () => {
    const chinese = bytes(
      '人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心。'.repeat(20),
      'utf-16le',
    );
    expect(looksLikeText(chinese, 'utf-16le')).toBe(true);
    expect(looksLikeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]), 'utf-8')).toBe(
      false,
    );
  });
});

describe('repairMojibake', () => {
  it.each([['I’m here — see you at the café.'], ['Grüße aus Köln'], ['1986–1990 Watford']])(
    'undoes UTF-8 read as Latin-1 or windows-1252: %s',
    (text) => {
      const utf8 = Buffer.from(text, 'utf8');
      expect(repairMojibake(utf8.toString('latin1'))).toBe(text);
      expect(repairMojibake(iconv.decode(utf8, 'windows-1252'))).toBe(text);
    },
  );

  it('leaves genuine Latin-1 text and plain text alone', () => {
    for (const text of ['café crème à la carte', 'Â is a letter; so is Ã.', 'plain ASCII text']) {
      expect(repairMojibake(text)).toBe(text);
    }
  });
});

describe('looksLikeText', () => {
  it('tells text from binary', () => {
    expect(looksLikeText(bytes('hello world\n', 'utf-8'))).toBe(true);
    expect(looksLikeText(bytes('hello', 'utf-16le'))).toBe(true);
    expect(looksLikeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]))).toBe(false);
  });
});
