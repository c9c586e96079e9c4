import { escapeHtml } from '../../elements/table-html.js';

/**
 * reStructuredText inline markup → HTML, for the few constructs that carry meaning for elements:
 * **strong** and *emphasis* (emphasized_text_*), ``literals``, hyperlinks (`text <url>`_ and named
 * references `text`_ resolved through `.. _text: url` targets), roles (:code:`x`, :ref:`x`) read as their
 * text, substitutions |name| read as the name, footnote references [1]_ dropped, backslash escapes.
 */

/** Hyperlink targets of the document: lower-cased, whitespace-normalised name → URL. */
export type LinkTargets = ReadonlyMap<string, string>;

const INLINE = new RegExp(
  [
    /``(?<literal>[^`]+?)``/.source,
    /`(?<linkText>[^`<]*?)\s*<(?<linkUrl>[^`>]+)>`__?/.source,
    /`(?<refName>[^`]+?)`__?(?![\w])/.source,
    /:[\w.+-]+:`(?<roleText>[^`]+?)`/.source,
    /`(?<interpreted>[^`]+?)`(?::[\w.+-]+:)?/.source,
    /\*\*(?<strong>[^\s*](?:[^*]*?[^\s*])?)\*\*/.source,
    /(?<![\w*])\*(?<emphasis>[^\s*](?:[^*]*?[^\s*])?)\*(?![\w*])/.source,
    /\|(?<substitution>[^|\s](?:[^|]*?[^|\s])?)\|(?:__?)?/.source,
    /\s?\[(?:\d+|#[\w-]*|\*|[A-Za-z][\w-]*)\]_/.source,
    /\\(?<escaped>.)/.source,
  ].join('|'),
  'g',
);

export function normaliseRefName(name: string): string {
  return name.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** One line or paragraph of RST text → HTML with <strong>, <em>, <code> and <a>; everything else escaped. */
export function rstInlineToHtml(text: string, targets: LinkTargets): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    html += escapeHtml(text.slice(last, match.index));
    last = match.index + match[0].length;
    const group = match.groups ?? {};
    if (group.literal !== undefined) html += `<code>${escapeHtml(group.literal)}</code>`;
    else if (group.linkUrl !== undefined) {
      const url = group.linkUrl.trim();
      const label = group.linkText?.trim() || url;
      html += `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
    } else if (group.refName !== undefined) {
      const url = targets.get(normaliseRefName(group.refName));
      html += url
        ? `<a href="${escapeHtml(url)}">${escapeHtml(group.refName)}</a>`
        : escapeHtml(group.refName);
    } else if (group.roleText !== undefined) html += escapeHtml(group.roleText.replace(/\s*<[^>]*>$/, ''));
    else if (group.interpreted !== undefined) html += escapeHtml(group.interpreted);
    else if (group.strong !== undefined) html += `<strong>${escapeHtml(group.strong)}</strong>`;
    else if (group.emphasis !== undefined) html += `<em>${escapeHtml(group.emphasis)}</em>`;
    else if (group.substitution !== undefined) html += escapeHtml(group.substitution);
    else if (group.escaped !== undefined) html += escapeHtml(group.escaped);
    // footnote references: nothing
  }
  return html + escapeHtml(text.slice(last));
}
