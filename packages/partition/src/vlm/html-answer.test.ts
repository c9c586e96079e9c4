import { describe, expect, it } from 'vitest';
import { extractHtml } from './html-answer.js';

describe('extractHtml', () => {
  it('keeps plain body HTML', () => {
    expect(extractHtml('<h1>Title</h1>\n<p>Text</p>')).toBe('<h1>Title</h1>\n<p>Text</p>');
  });

  it('unwraps code fences, whole documents and a leading sentence', () => {
    expect(extractHtml('```html\n<p>A</p>\n```')).toBe('<p>A</p>');
    expect(
      extractHtml('<!DOCTYPE html><html><head><title>x</title></head><body class="p"><p>B</p></body></html>'),
    ).toBe('<p>B</p>');
    expect(extractHtml('Here is the HTML:\n<p>C</p>')).toBe('<p>C</p>');
  });

  it('does not drop page text that comes before the first tag', () => {
    expect(extractHtml('Loose text on the page <p>D</p>')).toBe('Loose text on the page <p>D</p>');
  });
});
