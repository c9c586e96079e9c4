import { describe, expect, it } from 'vitest';
import { htmlToDrafts } from './html-to-drafts.js';

const summary = (html: string, options = {}) =>
  htmlToDrafts(html, options).map((d) => [d.type, d.text, d.metadata?.category_depth]);

describe('htmlToDrafts: structure', () => {
  it('reads headings as Titles with depth = level - 1 and paragraphs by the text heuristics', () => {
    const html = `<h1>Annual Report</h1><h3>Results</h3>
      <p>The company increased revenue by ten percent. Margins were stable during the year.</p>`;
    expect(summary(html)).toEqual([
      ['Title', 'Annual Report', 0],
      ['Title', 'Results', 2],
      [
        'NarrativeText',
        'The company increased revenue by ten percent. Margins were stable during the year.',
        undefined,
      ],
    ]);
  });

  it('takes a short paragraph as a Title only when all of it is bold, one level below the last heading', () => {
    const html = `<h2>Section</h2><p><b>Item 1A. Risk Factors</b></p><p>Some lead-in text:</p>
      <p style="font-weight:bold">Liquidity Overview</p>`;
    expect(summary(html)).toEqual([
      ['Title', 'Section', 1],
      ['Title', 'Item 1A. Risk Factors', 2],
      ['UncategorizedText', 'Some lead-in text:', undefined],
      ['Title', 'Liquidity Overview', 2],
    ]);
  });

  it('gives list items their nesting depth, also for lists nested directly in lists', () => {
    const html = `<ul><li>Top one<ul><li>Nested one</li><li>Nested two<ol><li>Deep</li></ol></li></ul></li>
      <ul><li>Sibling-nested</li></ul><li>Top two</li></ul>`;
    expect(summary(html)).toEqual([
      ['ListItem', 'Top one', 0],
      ['ListItem', 'Nested one', 1],
      ['ListItem', 'Nested two', 1],
      ['ListItem', 'Deep', 2],
      ['ListItem', 'Sibling-nested', 1],
      ['ListItem', 'Top two', 0],
    ]);
  });

  it('removes a typed bullet from list item text', () => {
    expect(summary('<ul><li>• Apples</li></ul>')).toEqual([['ListItem', 'Apples', 0]]);
  });

  it('keeps whitespace of pre as CodeSnippet, dropping the newline after <pre>', () => {
    const drafts = htmlToDrafts('<pre>\n  if (a) {\n    b();\n  }\n</pre>');
    expect(drafts).toEqual([{ type: 'CodeSnippet', text: '  if (a) {\n    b();\n  }', metadata: {} }]);
  });

  it('reads a lone <code> block as CodeSnippet but inline code as words', () => {
    expect(
      summary(
        '<div><code>npm install</code></div><p>Run <code>npm test</code> after changes to the code.</p>',
      ),
    ).toEqual([
      ['CodeSnippet', 'npm install', undefined],
      ['NarrativeText', 'Run npm test after changes to the code.', undefined],
    ]);
  });

  it('reads a long preformatted plain-text document as paragraphs, not one CodeSnippet', () => {
    const paragraph =
      'The committee shall report to the Congress on the progress made under this section. The report shall include recommendations for further action where needed.\n';
    const drafts = htmlToDrafts(
      `<pre>SECTION 1. SHORT TITLE\n\n${paragraph.repeat(8)}\n${paragraph.repeat(8)}</pre>`,
    );
    expect(drafts.length).toBeGreaterThan(1);
    expect(drafts.some((d) => d.type === 'CodeSnippet')).toBe(false);
    expect(drafts.some((d) => d.type === 'NarrativeText')).toBe(true);
  });

  it('reads address as Address and figcaption as FigureCaption', () => {
    expect(
      summary(
        '<address>Jane Doe<br>12 High Street<br>Springfield</address><figure><img src="a.png" alt="Chart"><figcaption>Figure 1. Sales</figcaption></figure>',
      ),
    ).toEqual([
      ['Address', 'Jane Doe 12 High Street Springfield', undefined],
      ['Image', 'Chart', undefined],
      ['FigureCaption', 'Figure 1. Sales', undefined],
    ]);
  });

  it('splits paragraphs on double <br> in hand-written pages, not on single ones', () => {
    expect(
      summary(
        '<body>First part of the text is here.<br>Still the first paragraph goes on.<br><br>Second paragraph is written here.</body>',
      ),
    ).toEqual([
      ['NarrativeText', 'First part of the text is here. Still the first paragraph goes on.', undefined],
      ['NarrativeText', 'Second paragraph is written here.', undefined],
    ]);
  });

  it('drops script, style, noscript, template, head and hidden content', () => {
    const html = `<html><head><title>T</title><style>p{}</style></head><body><script>var x = 1;</script>
      <noscript>Enable JS</noscript><template><p>tpl</p></template><div hidden>secret</div>
      <div style="display: none">also hidden</div><p>Visible text is here.</p></body></html>`;
    expect(htmlToDrafts(html).map((d) => d.text)).toEqual(['Visible text is here.']);
  });

  it('treats header, footer and nav outside articles as page chrome', () => {
    const html = `<header><p>Site name</p></header><nav><a href="/">Home</a></nav><main><article>
      <header><h1>Article title</h1></header><p>The article body says something useful.</p></article></main>
      <nav><a href="/more">More links</a></nav><footer>© 2024 Example</footer>`;
    expect(summary(html)).toEqual([
      ['Header', 'Site name', undefined],
      ['Header', 'Home', undefined],
      ['Title', 'Article title', 0],
      ['NarrativeText', 'The article body says something useful.', undefined],
      ['Footer', 'More links', undefined],
      ['Footer', '© 2024 Example', undefined],
    ]);
    expect(htmlToDrafts('<footer>x y</footer>', { detectPageChrome: false })[0]!.type).not.toBe('Footer');
  });
});

describe('htmlToDrafts: inline metadata', () => {
  it('records links with their offsets and emphasis runs with tags b and i', () => {
    const [paragraph] = htmlToDrafts(
      '<p>Read <a href="https://a.example/x">the  guide</a> and <strong>then</strong> <em>the notes</em> at <a href="/n">notes</a>.</p>',
    );
    expect(paragraph!.text).toBe('Read the guide and then the notes at notes.');
    expect(paragraph!.metadata).toMatchObject({
      link_texts: ['the guide', 'notes'],
      link_urls: ['https://a.example/x', '/n'],
      links: [
        { text: 'the guide', url: 'https://a.example/x', start_index: 5 },
        { text: 'notes', url: '/n', start_index: 37 },
      ],
      emphasized_text_contents: ['then', 'the notes'],
      emphasized_text_tags: ['b', 'i'],
    });
    for (const link of paragraph!.metadata!.links!) {
      expect(paragraph!.text.slice(link.start_index, link.start_index + link.text.length)).toBe(link.text);
    }
  });

  it('shifts link offsets when a bullet is removed from the text', () => {
    const [item] = htmlToDrafts('<p>• See <a href="u">this</a></p>');
    expect(item!.type).toBe('ListItem');
    expect(item!.text).toBe('See this');
    expect(item!.metadata!.links).toEqual([{ text: 'this', url: 'u', start_index: 4 }]);
  });

  it('ignores javascript: links', () => {
    const [paragraph] = htmlToDrafts('<p><a href="javascript:void(0)">Click me now</a></p>');
    expect(paragraph!.metadata!.links).toBeUndefined();
  });
});

describe('htmlToDrafts: images', () => {
  it('decodes data: URIs into image_base64 and keeps remote sources as image_url, never fetched', () => {
    const drafts = htmlToDrafts(
      '<img src="data:image/png;base64,iVBORw0K" alt="Logo"><img src="https://x.example/a.jpg" alt="Photo"><img src="pixel.gif" width="1" height="1">',
    );
    expect(drafts).toEqual([
      { type: 'Image', text: 'Logo', metadata: { image_base64: 'iVBORw0K', image_mime_type: 'image/png' } },
      { type: 'Image', text: 'Photo', metadata: { image_url: 'https://x.example/a.jpg' } },
    ]);
  });

  it('lets a container resolve relative sources, and places inline images after their paragraph', () => {
    const drafts = htmlToDrafts('<p>Before the image <img src="img/a.png" alt="A"> and after it.</p>', {
      resolveImage: (src) => (src === 'img/a.png' ? { base64: 'AAAA', mimeType: 'image/png' } : undefined),
    });
    expect(drafts.map((d) => d.type === 'Image')).toEqual([false, true]);
    expect(drafts[0]!.text).toBe('Before the image and after it.');
    expect(drafts[1]!.metadata).toEqual({ image_base64: 'AAAA', image_mime_type: 'image/png' });
  });
});

describe('htmlToDrafts: options', () => {
  it('sets page_number on every draft and languages from <html lang>', () => {
    const drafts = htmlToDrafts('<html lang="de-DE"><body><h1>Titel</h1><p>Der Text.</p></body></html>', {
      pageNumber: 3,
    });
    expect(drafts.every((d) => d.metadata?.page_number === 3)).toBe(true);
    expect(drafts.every((d) => d.metadata?.languages?.[0] === 'deu')).toBe(true);
    const undeclared = htmlToDrafts('<html lang="de"><p>x y z</p></html>', { useDeclaredLanguage: false });
    expect(undeclared[0]!.metadata?.languages).toBeUndefined();
    expect(
      htmlToDrafts('<html lang="zz-unknown"><p>x y z</p></html>')[0]!.metadata?.languages,
    ).toBeUndefined();
  });
});

describe('htmlToDrafts: hostile input', () => {
  it('survives 100 000 nested elements without overflowing the stack', () => {
    const depth = 100_000;
    const html = `${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}${'<b>'.repeat(depth)}bold${'<ul><li>'.repeat(2000)}`;
    const drafts = htmlToDrafts(html);
    expect(drafts[0]!.text).toBe('deep text');
    expect(drafts.some((d) => d.text === 'bold')).toBe(true);
  });

  it('reads truncated and malformed markup as far as it goes', () => {
    expect(
      htmlToDrafts('<h1>Title</h1><p>Body text <b>bold <i>both</b> tail</p><table><tr><td>a').map(
        (d) => d.text,
      ),
    ).toEqual(['Title', 'Body text bold both tail', 'a']);
    expect(htmlToDrafts('')).toEqual([]);
    expect(htmlToDrafts('<<<>>>&&&;;')).toHaveLength(1);
  });
});
