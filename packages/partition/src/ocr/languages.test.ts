import { describe, expect, it } from 'vitest';
import { resolveOcrLanguages } from './languages.js';

describe('resolveOcrLanguages', () => {
  it('maps ISO 639-1 and 639-3 codes to each engine and defaults to English', () => {
    expect(resolveOcrLanguages('tesseract', ['en', 'fra'])).toEqual(['eng', 'fra']);
    expect(resolveOcrLanguages('tesseract', ['eng', 'en'])).toEqual(['eng']);
    expect(resolveOcrLanguages('ppocr', ['eng', 'chi_sim'])).toEqual(['en', 'ch']);
    expect(resolveOcrLanguages('ppocr', undefined)).toEqual(['en']);
    expect(resolveOcrLanguages('tesseract', ['auto'])).toEqual(['eng']);
  });

  it('refuses a language without a packaged model, listing the supported ones', () => {
    expect(() => resolveOcrLanguages('tesseract', ['deu'])).toThrowError(
      expect.objectContaining({
        code: 'invalid_option',
        message:
          'OCR language "deu" is not available with ocr_agent tesseract; supported: eng (English), fra (French); add others by putting <code>.traineddata files in the folder named by DOCSVC_TESSDATA_DIR',
      }),
    );
    expect(() => resolveOcrLanguages('ppocr', ['fr'])).toThrowError(/supported: eng \(English\), zho/);
    expect(() => resolveOcrLanguages('ppocr', ['xx-not-a-code'])).toThrowError(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});
