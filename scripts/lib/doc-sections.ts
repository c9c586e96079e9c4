import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Measured numbers live in docs/*.md between markers, `<!-- name:start -->` … `<!-- name:end -->`, so that
 * `npm run eval` / `npm run bench` rewrite their own tables and leave the prose around them alone.
 */
export function replaceSection(file: string, name: string, content: string, title = name): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${content.trim()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + block + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n## ${title}\n\n${block}\n`;
  writeFileSync(file, next.startsWith('\n') ? next.trimStart() : next);
}

/** A GitHub-flavoured Markdown table. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
