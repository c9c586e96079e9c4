/**
 * The model's answer → the HTML to partition. Models are asked for body HTML only, but some wrap it in
 * a Markdown code fence or a whole document, or add a sentence before it; those wrappers are removed.
 */
export function extractHtml(answer: string): string {
  let html = answer.trim();
  const fenced = /```(?:html)?\s*\n([\s\S]*?)\n?```/i.exec(html);
  if (fenced) html = fenced[1]!.trim();
  const body = /<body[^>]*>([\s\S]*?)(?:<\/body>|$)/i.exec(html);
  if (body) return body[1]!.trim();
  // Text before the first tag ("Here is the HTML:") is chatter, not page content.
  const firstTag = html.search(/<[a-z!]/i);
  return firstTag > 0 && !/[<>]/.test(html.slice(0, firstTag)) && html.slice(0, firstTag).trim().endsWith(':')
    ? html.slice(firstTag)
    : html;
}
