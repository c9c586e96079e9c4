import { describe, expect, it } from 'vitest';
import { limitNesting } from './nesting.js';

describe('limitNesting', () => {
  it('returns documents within the limit unchanged', () => {
    const html = `<div><p>a<p>b${'<li>x'.repeat(5000)}</div>`;
    expect(limitNesting(html, { html: true, limit: 10 })).toBe(html);
  });

  it('removes tags deeper than the limit and keeps their text', () => {
    const html = `${'<div>'.repeat(6)}text${'</div>'.repeat(6)}<p>after</p>`;
    expect(limitNesting(html, { html: true, limit: 3 })).toBe(
      '<div><div><div>text</div></div></div><p>after</p>',
    );
  });

  it('counts every element in XML mode, where nothing closes implicitly', () => {
    const xml = `${'<a><p>'.repeat(3)}v${'</p></a>'.repeat(3)}`;
    expect(limitNesting(xml, { html: false, limit: 2 })).toBe('<a><p>v</p></a>');
    expect(limitNesting(xml, { html: true, limit: 3 })).toBe(xml);
  });
});
