import { escapeHtml } from '../../elements/table-html.js';

/**
 * Org inline markup → HTML: [[link][description]] and [[link]], *bold*, /italic/, =verbatim= and ~code~
 * become <a>, <strong>, <em> and <code>; _underline_ and +strike-through+ keep only their words;
 * footnote references [fn:x] are dropped. Emphasis follows Org's rule: the marker sits at a word
 * boundary and the marked text neither starts nor ends with a space.
 */

const PRE = String.raw`(?<=^|[\s\-({'"])`;
const POST = String.raw`(?=$|[\s\-.,;:!?')}"\]])`;
const marked = (marker: string, name: string) => {
  const m = marker.replace(/[*+/]/g, '\\$&');
  return `${PRE}${m}(?<${name}>[^\\s${m}](?:[^${m}\\n]*?[^\\s${m}])?)${m}${POST}`;
};

const INLINE = new RegExp(
  [
    String.raw`\[\[(?<target>[^\]]+)\](?:\[(?<description>[^\]]*)\])?\]`,
    String.raw`\s?\[fn:[^\]]*\]`,
    marked('*', 'bold'),
    marked('/', 'italic'),
    marked('=', 'verbatim'),
    marked('~', 'code'),
    marked('_', 'underline'),
    marked('+', 'strike'),
  ].join('|'),
  'g',
);

export const IMAGE_EXTENSION = /\.(?:png|jpe?g|gif|svg|webp|bmp|tiff?)$/i;

/** `file:x.png` and `./x.png` both name the file x.png. */
export function linkTarget(target: string): string {
  return target.replace(/^file:/, '').trim();
}

export function orgInlineToHtml(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    html += escapeHtml(text.slice(last, match.index));
    last = match.index + match[0].length;
    const group = match.groups ?? {};
    if (group.target !== undefined) {
      const target = linkTarget(group.target);
      const label = group.description?.trim() || target;
      html += `<a href="${escapeHtml(target)}">${escapeHtml(label)}</a>`;
    } else if (group.bold !== undefined) html += `<strong>${escapeHtml(group.bold)}</strong>`;
    else if (group.italic !== undefined) html += `<em>${escapeHtml(group.italic)}</em>`;
    else if (group.verbatim !== undefined) html += `<code>${escapeHtml(group.verbatim)}</code>`;
    else if (group.code !== undefined) html += `<code>${escapeHtml(group.code)}</code>`;
    else if (group.underline !== undefined) html += escapeHtml(group.underline);
    else if (group.strike !== undefined) html += escapeHtml(group.strike);
    // footnote references: nothing
  }
  return html + escapeHtml(text.slice(last));
}
