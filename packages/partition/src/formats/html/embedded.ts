import type { ElementDraft } from '../../elements/element.js';
import type { FormatContext } from '../format.js';

/**
 * HTML carried inside another document (an e-mail body, RTF that encapsulates HTML), already decoded to
 * a string by the outer reader. It goes through the HTML format like any HTML document, as UTF-8 with
 * its own charset declarations rewritten to say so; the drafts belong to the outer document, so the
 * nested file type is not kept.
 */
export async function partitionEmbeddedHtml(
  context: FormatContext,
  html: string | Uint8Array,
): Promise<ElementDraft[]> {
  const data = typeof html === 'string' ? utf8Html(html) : html;
  const drafts = await context.partitionNested({ data, content_type: 'text/html' });
  for (const draft of drafts) if (draft.metadata?.filetype === 'text/html') delete draft.metadata.filetype;
  return drafts;
}

function utf8Html(html: string): Uint8Array {
  const declared = html.replace(
    /(<meta\b[^>]*?charset\s*=\s*["']?)[\w:.-]+/gi,
    (_match, prefix: string) => `${prefix}utf-8`,
  );
  return new TextEncoder().encode(`\uFEFF${declared}`);
}
