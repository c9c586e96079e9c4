/**
 * What the VLM is asked (documented word for word in docs/vlm.md). The answer is HTML because the HTML
 * partitioner already turns tags into typed elements (h1–h6 → Title with depth, li → ListItem, table →
 * Table with text_as_html, header/footer → Header/Footer, figcaption → FigureCaption...), so a page read
 * by a VLM gets the same element model as any other document.
 */
export const VLM_SYSTEM_PROMPT = `You convert the image of one document page into HTML that keeps its structure and all of its text.

Rules:
- Transcribe every piece of text on the page exactly as written, in reading order (multi-column pages: each column top to bottom, left column first). Do not summarise, correct, translate or add anything.
- Titles and headings: <h1> to <h6> by level. Paragraphs: <p>. Lists: <ul> or <ol> with <li>, nested as on the page.
- Tables: <table> with <tr>, <th> for header cells and <td> for data cells; use colspan and rowspan for merged cells. Never turn a table into paragraphs.
- Running headers, page numbers and footers: inside <header> (top of the page) or <footer> (bottom of the page).
- Pictures, charts and diagrams: <figure><img alt="one-sentence description"><figcaption>the caption printed on the page, if any</figcaption></figure>.
- Code or preformatted text: <pre>. Postal addresses: <address>. Formulas: their text in a <p>.
- No CSS, no scripts, no Markdown, no comments.

Answer with the HTML of the page body only, starting with its first element, and nothing else.`;

export function vlmUserPrompt(pageNumber: number): string {
  return `Convert page ${pageNumber} of the document, shown in the image, to HTML.`;
}
