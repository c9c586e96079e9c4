import { Parser } from 'htmlparser2';

/**
 * HTML → plain text with the block structure kept as blank lines, for e-mail bodies when the HTML format
 * cannot partition them (it is then read with the plain-text rules). Block elements start paragraphs,
 * <br> breaks a line, list items get a bullet, table cells are separated by spaces; scripts, styles and
 * the head are dropped. This is deliberately small: the HTML format is the real reader.
 */

const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tr',
  'ul',
]);
const SKIPPED = new Set(['script', 'style', 'head', 'title', 'template', 'noscript']);

export function htmlToText(html: string): string {
  const out: string[] = [];
  let skipping = 0;
  const paragraph = () => out.push('\n\n');
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIPPED.has(name)) skipping++;
        else if (name === 'br') out.push('\n');
        else if (name === 'li') out.push('\n\n• ');
        else if (name === 'td' || name === 'th') out.push(' ');
        else if (BLOCK.has(name)) paragraph();
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) skipping = Math.max(0, skipping - 1);
        else if (BLOCK.has(name)) paragraph();
      },
      ontext(text) {
        if (skipping === 0) out.push(text.replace(/[ \t\r\n\f]+/g, ' '));
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return out
    .join('')
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
