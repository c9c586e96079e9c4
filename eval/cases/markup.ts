import iconv from 'iconv-lite';
import { makeEpub } from '../../packages/partition/src/formats/epub/test-support/make-epub.js';
import type { CaseSource, EvalCase, ExpectedElement } from '../types.js';

/**
 * Markup documents (HTML, Markdown, reStructuredText, Org, EPUB, XML) written from known outlines. Each
 * outline is rendered in every format's own syntax, including its inline markup (bold, links, code), so
 * the expected elements are exactly the text that was put in.
 */

type Block =
  | { kind: 'title'; text: string; level: number }
  | { kind: 'prose'; text: string; bold?: string; link?: { text: string; url: string } }
  | { kind: 'bullet' | 'number'; text: string; level: number }
  | { kind: 'table'; cells: string[][] }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'image'; alt: string; src: string };

const REPORT: Block[] = [
  { kind: 'title', text: 'Harbour Authority Annual Review', level: 1 },
  {
    kind: 'prose',
    text: 'The harbour handled more cargo this year than in any year since it opened. Container traffic grew fastest.',
  },
  { kind: 'title', text: 'Cargo Volumes', level: 2 },
  {
    kind: 'prose',
    text: 'Volumes are reported in thousands of tonnes, as measured at the main gate.',
    bold: 'thousands of tonnes',
  },
  {
    kind: 'table',
    cells: [
      ['Cargo', '2023', '2024'],
      ['Containers', '410', '468'],
      ['Bulk grain', '220', '205'],
      ['Vehicles', '95', '118'],
    ],
  },
  { kind: 'title', text: 'Priorities', level: 2 },
  { kind: 'bullet', text: 'Deepen the eastern channel before the spring tides.', level: 0 },
  { kind: 'bullet', text: 'Dredging starts in the second week of March.', level: 1 },
  { kind: 'bullet', text: 'Renew the crane contracts with both operators.', level: 0 },
  { kind: 'number', text: 'Publish the tender documents.', level: 0 },
  { kind: 'number', text: 'Select the contractors by the end of April.', level: 0 },
  {
    kind: 'prose',
    text: 'Details of every project are published on the authority website for public comment.',
    link: { text: 'authority website', url: 'https://harbour.example/projects' },
  },
];

const GUIDE: Block[] = [
  { kind: 'title', text: 'Installing the Field Recorder', level: 1 },
  {
    kind: 'prose',
    text: 'The recorder runs on any laptop with a recent operating system and a free USB port.',
  },
  { kind: 'title', text: 'Requirements', level: 2 },
  { kind: 'bullet', text: 'A laptop with at least four gigabytes of memory', level: 0 },
  { kind: 'bullet', text: 'The recorder cable supplied in the box', level: 0 },
  { kind: 'title', text: 'Setup', level: 2 },
  { kind: 'prose', text: 'Open a terminal in the folder where you saved the package and run the installer.' },
  { kind: 'code', text: 'tar xzf recorder.tar.gz\ncd recorder\n./install --prefix /opt/recorder' },
  { kind: 'quote', text: 'Always disconnect the recorder before you update the software on the laptop.' },
  { kind: 'title', text: 'Supported Models', level: 3 },
  {
    kind: 'table',
    cells: [
      ['Model', 'Channels', 'Sample rate'],
      ['FR-2', '2', '48 kHz'],
      ['FR-8', '8', '96 kHz'],
    ],
  },
  { kind: 'image', alt: 'Front panel of the recorder', src: 'images/panel.png' },
  { kind: 'prose', text: 'Contact the support desk if the recorder does not appear after installation.' },
];

// ---------------------------------------------------------------- expected elements

function expectedOne(block: Block): ExpectedElement {
  if (block.kind === 'title') return { type: 'Title', text: block.text };
  if (block.kind === 'prose' || block.kind === 'quote') return { type: 'NarrativeText', text: block.text };
  if (block.kind === 'table') {
    return { type: 'Table', text: block.cells.map((row) => row.join(' ')).join('\n'), cells: block.cells };
  }
  if (block.kind === 'code') return { type: 'CodeSnippet', text: block.text };
  if (block.kind === 'image') return { type: 'Image', text: block.alt };
  return { type: 'ListItem', text: block.text };
}

function expectedOf(blocks: Block[]): ExpectedElement[] {
  return blocks.map(expectedOne);
}

/** Prose with its bold phrase and link written by a format's inline syntax. */
function inline(
  block: Extract<Block, { kind: 'prose' }>,
  bold: (t: string) => string,
  link: (t: string, url: string) => string,
) {
  let text = block.text;
  if (block.bold) text = text.replace(block.bold, bold(block.bold));
  if (block.link) text = text.replace(block.link.text, link(block.link.text, block.link.url));
  return text;
}

/** Consecutive list blocks grouped, so each renderer writes one list per run. */
function groups(blocks: Block[]): (Block | Block[])[] {
  const out: (Block | Block[])[] = [];
  for (const block of blocks) {
    const last = out.at(-1);
    const isItem = block.kind === 'bullet' || block.kind === 'number';
    if (isItem && Array.isArray(last) && last[0]!.kind === block.kind) last.push(block);
    else out.push(isItem ? [block] : block);
  }
  return out;
}

// ---------------------------------------------------------------- renderers

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function toHtmlBody(blocks: Block[]): string {
  const out: string[] = [];
  for (const group of groups(blocks)) {
    if (Array.isArray(group)) {
      const tag = group[0]!.kind === 'number' ? 'ol' : 'ul';
      let html = `<${tag}>`;
      let level = 0;
      group.forEach((item, index) => {
        const itemLevel = (item as { level: number }).level;
        if (index > 0 && itemLevel > level) html += `<${tag}>`;
        else if (index > 0 && itemLevel < level) html += `</li></${tag}></li>`;
        else if (index > 0) html += '</li>';
        html += `<li>${esc((item as { text: string }).text)}`;
        level = itemLevel;
      });
      html += `</li>${`</${tag}></li>`.repeat(level)}</${tag}>`;
      out.push(html);
      continue;
    }
    const block = group;
    if (block.kind === 'title') out.push(`<h${block.level}>${esc(block.text)}</h${block.level}>`);
    if (block.kind === 'prose')
      out.push(
        `<p>${inline(
          block,
          (t) => `<strong>${esc(t)}</strong>`,
          (t, u) => `<a href="${u}">${esc(t)}</a>`,
        )}</p>`,
      );
    if (block.kind === 'quote') out.push(`<blockquote><p>${esc(block.text)}</p></blockquote>`);
    if (block.kind === 'code') out.push(`<pre><code>${esc(block.text)}</code></pre>`);
    if (block.kind === 'image') out.push(`<figure><img src="${block.src}" alt="${esc(block.alt)}"></figure>`);
    if (block.kind === 'table') {
      const [head, ...rows] = block.cells;
      out.push(
        `<table><thead><tr>${head!.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${rows
          .map((row) => `<tr>${row.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`,
      );
    }
  }
  return out.join('\n');
}

function toHtml(blocks: Block[], chrome = false): string {
  const body = toHtmlBody(blocks);
  const page = chrome
    ? `<header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header><main>${body}</main><footer><p>Harbour Authority 2024</p></footer>`
    : body;
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Doc</title><script>var tracking = 1;</script><style>p { margin: 0 }</style></head><body>${page}</body></html>`;
}

function toMarkdown(blocks: Block[]): string {
  const out: string[] = [];
  for (const group of groups(blocks)) {
    if (Array.isArray(group)) {
      out.push(
        group
          .map((item, index) => {
            const { text, level } = item as { text: string; level: number };
            return `${'    '.repeat(level)}${item.kind === 'number' ? `${index + 1}.` : '-'} ${text}`;
          })
          .join('\n'),
      );
      continue;
    }
    const block = group;
    if (block.kind === 'title') out.push(`${'#'.repeat(block.level)} ${block.text}`);
    if (block.kind === 'prose')
      out.push(
        inline(
          block,
          (t) => `**${t}**`,
          (t, u) => `[${t}](${u})`,
        ),
      );
    if (block.kind === 'quote') out.push(`> ${block.text}`);
    if (block.kind === 'code') out.push(`\`\`\`sh\n${block.text}\n\`\`\``);
    if (block.kind === 'image') out.push(`![${block.alt}](${block.src})`);
    if (block.kind === 'table') {
      const [head, ...rows] = block.cells;
      out.push(
        [
          `| ${head!.join(' | ')} |`,
          `|${head!.map(() => '---').join('|')}|`,
          ...rows.map((r) => `| ${r.join(' | ')} |`),
        ].join('\n'),
      );
    }
  }
  return `${out.join('\n\n')}\n`;
}

function gridTable(cells: string[][]): string {
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)) + 2);
  const rule = (char: string) => `+${widths.map((w) => char.repeat(w)).join('+')}+`;
  const line = (row: string[]) =>
    `|${row.map((cell, column) => ` ${cell.padEnd(widths[column]! - 1)}`).join('|')}|`;
  const [head, ...rows] = cells;
  return [rule('-'), line(head!), rule('='), ...rows.flatMap((row) => [line(row), rule('-')])].join('\n');
}

function toRst(blocks: Block[]): string {
  const underline = ['=', '-', '~'];
  const out: string[] = [];
  for (const group of groups(blocks)) {
    if (Array.isArray(group)) {
      out.push(
        group
          .map((item) => {
            const { text, level } = item as { text: string; level: number };
            return `${'  '.repeat(level)}${item.kind === 'number' ? '#.' : '-'} ${text}`;
          })
          // A nested list needs a blank line before and after it in RST.
          .reduce((all, line, index, lines) => {
            const indent = (l: string) => l.length - l.trimStart().length;
            const separate = index > 0 && indent(line) !== indent(lines[index - 1]!);
            return `${all}${index === 0 ? '' : separate ? '\n\n' : '\n'}${line}`;
          }, ''),
      );
      continue;
    }
    const block = group;
    if (block.kind === 'title')
      out.push(`${block.text}\n${underline[block.level - 1]!.repeat(block.text.length)}`);
    if (block.kind === 'prose')
      out.push(
        inline(
          block,
          (t) => `**${t}**`,
          (t, u) => `\`${t} <${u}>\`_`,
        ),
      );
    // The empty comment ends a preceding directive, whose body would otherwise take the indented quote.
    if (block.kind === 'quote') out.push(`..\n\n    ${block.text}`);
    if (block.kind === 'code') out.push(`.. code-block:: sh\n\n${block.text.replace(/^/gm, '   ')}`);
    if (block.kind === 'image') out.push(`.. image:: ${block.src}\n   :alt: ${block.alt}`);
    if (block.kind === 'table') out.push(gridTable(block.cells));
  }
  return `${out.join('\n\n')}\n`;
}

function toOrg(blocks: Block[]): string {
  const out: string[] = [];
  for (const group of groups(blocks)) {
    if (Array.isArray(group)) {
      out.push(
        group
          .map((item, index) => {
            const { text, level } = item as { text: string; level: number };
            return `${'  '.repeat(level)}${item.kind === 'number' ? `${index + 1}.` : '-'} ${text}`;
          })
          .join('\n'),
      );
      continue;
    }
    const block = group;
    if (block.kind === 'title') out.push(`${'*'.repeat(block.level)} ${block.text}`);
    if (block.kind === 'prose')
      out.push(
        inline(
          block,
          (t) => `*${t}*`,
          (t, u) => `[[${u}][${t}]]`,
        ),
      );
    if (block.kind === 'quote') out.push(`#+BEGIN_QUOTE\n${block.text}\n#+END_QUOTE`);
    if (block.kind === 'code') out.push(`#+BEGIN_SRC sh\n${block.text}\n#+END_SRC`);
    if (block.kind === 'image') out.push(`#+CAPTION: ${block.alt}\n[[file:${block.src}]]`);
    if (block.kind === 'table') {
      const [head, ...rows] = block.cells;
      out.push(
        [
          `| ${head!.join(' | ')} |`,
          `|${head!.map(() => '---').join('+')}|`,
          ...rows.map((r) => `| ${r.join(' | ')} |`),
        ].join('\n'),
      );
    }
  }
  return `${out.join('\n\n')}\n`;
}

/** Chapters split at each level-1 title; each chapter is one XHTML file. */
function toEpub(blocks: Block[]): Uint8Array {
  const chapters: Block[][] = [];
  for (const block of blocks) {
    if (chapters.length === 0 || (block.kind === 'title' && block.level === 1)) chapters.push([]);
    chapters.at(-1)!.push(block);
  }
  return makeEpub(
    chapters.map((chapter, index) => ({ name: `chapter-${index + 1}.xhtml`, body: toHtmlBody(chapter) })),
  );
}

// ---------------------------------------------------------------- cases

const encoder = new TextEncoder();

function caseOf(
  format: string,
  name: string,
  extension: string,
  data: Uint8Array,
  expected: ExpectedElement[],
): EvalCase {
  return { name: `markup/${format}/${name}`, format, filename: `${name}.${extension}`, data, expected };
}

/** The report with its headings only in bold paragraphs, in windows-1252 declared by <meta>. */
function legacyHtml(): EvalCase {
  const blocks = REPORT.filter((block) => block.kind !== 'title' || block.level > 1);
  const html = `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><body>
    <p><b>Harbour Authority – Annual Review</b></p>${toHtmlBody(blocks)}<p>Prices in € and £ are converted at the year’s average rate.</p></body></html>`;
  const expected: ExpectedElement[] = [
    { type: 'Title', text: 'Harbour Authority – Annual Review' },
    ...expectedOf(blocks),
    { type: 'NarrativeText', text: 'Prices in € and £ are converted at the year’s average rate.' },
  ];
  return caseOf('html', 'report-windows-1252', 'html', iconv.encode(html, 'windows-1252'), expected);
}

function xmlCatalogue(): EvalCase {
  const books = [
    [
      'The Quiet Harbour',
      'A fishing village learns to live with the new container port built across the bay.',
    ],
    ['Winter Crossing', 'Two ferry captains compete for the last crossing before the ice closes the strait.'],
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<catalogue>\n${books
    .map(
      ([title, summary]) =>
        `  <book>\n    <title>${title}</title>\n    <summary>${summary}</summary>\n  </book>`,
    )
    .join('\n')}\n</catalogue>\n`;
  const expected = books.flatMap(([title, summary]): ExpectedElement[] => [
    { type: 'Title', text: title! },
    { type: 'NarrativeText', text: summary! },
  ]);
  return caseOf('xml', 'catalogue', 'xml', encoder.encode(xml), expected);
}

// ---------------------------------------------------------------- documents written the way tools write them

/** HTML as word processors, old CMSs and SEC filings write it: no semantic tags, styles everywhere. */
function messyHtml(): EvalCase {
  const html = `<html><body>
<div style="display:none">CONTEXT_ID_0001 hidden facts</div>
<table width="100%" cellpadding="0"><tr><td width="20%"><img src="spacer.gif" width="1" height="1"></td><td>
<p style="font-weight:bold;font-size:14pt">ANNUAL MAINTENANCE PLAN</p>
<div><span>The depot inspects every bus once a month</span> <span>and repairs faults within two days.</span></div>
<p style="font-weight:bold">Inspection Schedule</p>
<table border="1">
<tr><td>&nbsp;</td><td colspan="2" align="center"><b>Inspections</b></td><td>&nbsp;</td></tr>
<tr><td>Depot</td><td>Spring</td><td>Autumn</td><td></td></tr>
<tr><td>Central</td><td>120</td><td>118</td><td>&nbsp;</td></tr>
<tr><td>Harbour</td><td>64</td><td>70</td><td></td></tr>
</table>
<table><tr><td>&#8226;</td><td>Replace brake pads on the older fleet first.</td></tr></table>
<table><tr><td>&#8226;</td><td>Order tyres before the price rise in June.</td></tr></table>
<font face="Arial">Drivers report faults through the depot hotline.<br><br>Faults reported after six are handled the next morning.</font>
<script>document.write('ad')</script><!-- a comment -->
<ul><li>Keep the logbook in the cab<li>Sign every entry</ul>
</td></tr></table></body></html>`;
  const expected: ExpectedElement[] = [
    { type: 'Title', text: 'ANNUAL MAINTENANCE PLAN' },
    {
      type: 'NarrativeText',
      text: 'The depot inspects every bus once a month and repairs faults within two days.',
    },
    { type: 'Title', text: 'Inspection Schedule' },
    {
      type: 'Table',
      text: 'Inspections\nDepot Spring Autumn\nCentral 120 118\nHarbour 64 70',
      cells: [
        ['', 'Inspections', 'Inspections'],
        ['Depot', 'Spring', 'Autumn'],
        ['Central', '120', '118'],
        ['Harbour', '64', '70'],
      ],
    },
    { type: 'ListItem', text: 'Replace brake pads on the older fleet first.' },
    { type: 'ListItem', text: 'Order tyres before the price rise in June.' },
    { type: 'NarrativeText', text: 'Drivers report faults through the depot hotline.' },
    { type: 'NarrativeText', text: 'Faults reported after six are handled the next morning.' },
    { type: 'ListItem', text: 'Keep the logbook in the cab' },
    { type: 'ListItem', text: 'Sign every entry' },
  ];
  return caseOf('html', 'word-processor-export', 'html', encoder.encode(html), expected);
}

/** Markdown with the constructs people actually mix: setext headings, lazy lines, HTML, escaped pipes. */
function messyMarkdown(): EvalCase {
  const md = `---
title: Release notes
---
Release Notes
=============

Version 2.4 fixes the export bug that some users
hit when saving large projects.

Known Issues
------------

1. Exports over two gigabytes are slow.
   1. Split the project before exporting.
2. The preview flickers on some screens.

| Setting | Default | Notes |
|:--|:-:|--:|
| \`cache\` | on | keeps *recent* files |
| limit | 10 \\| 20 | items per page |

<div class="note"><p>Back up your projects before you upgrade to this version.</p></div>

    legacy --mode=compat
`;
  const expected: ExpectedElement[] = [
    { type: 'Title', text: 'Release Notes' },
    {
      type: 'NarrativeText',
      text: 'Version 2.4 fixes the export bug that some users hit when saving large projects.',
    },
    { type: 'Title', text: 'Known Issues' },
    { type: 'ListItem', text: 'Exports over two gigabytes are slow.' },
    { type: 'ListItem', text: 'Split the project before exporting.' },
    { type: 'ListItem', text: 'The preview flickers on some screens.' },
    {
      type: 'Table',
      text: 'Setting Default Notes\ncache on keeps recent files\nlimit 10 | 20 items per page',
      cells: [
        ['Setting', 'Default', 'Notes'],
        ['cache', 'on', 'keeps recent files'],
        ['limit', '10 | 20', 'items per page'],
      ],
    },
    { type: 'NarrativeText', text: 'Back up your projects before you upgrade to this version.' },
    { type: 'CodeSnippet', text: 'legacy --mode=compat' },
  ];
  return caseOf('md', 'release-notes', 'md', encoder.encode(md), expected);
}

/** RST as Sphinx projects write it: overlined titles, simple tables, auto-numbered lists, notes. */
function sphinxRst(): EvalCase {
  const rst = `.. _install:

=================
Installation
=================

.. contents:: On this page
   :local:

Prerequisites
=============

You need Python 3.10 or later and a C compiler on the build machine.

#. Create a virtual environment.
#. Install the package with pip.

.. note::

   The package does not support Python 2 in any version.

Options
=======

==========  ========  =====================
Option      Default   Meaning
==========  ========  =====================
--fast      off       skip the slow checks
--jobs      4         parallel build jobs
==========  ========  =====================

Run the build with::

   make build --jobs 8
`;
  const expected: ExpectedElement[] = [
    { type: 'Title', text: 'Installation' },
    { type: 'Title', text: 'Prerequisites' },
    { type: 'NarrativeText', text: 'You need Python 3.10 or later and a C compiler on the build machine.' },
    { type: 'ListItem', text: 'Create a virtual environment.' },
    { type: 'ListItem', text: 'Install the package with pip.' },
    { type: 'NarrativeText', text: 'The package does not support Python 2 in any version.' },
    { type: 'Title', text: 'Options' },
    {
      type: 'Table',
      text: 'Option Default Meaning\n--fast off skip the slow checks\n--jobs 4 parallel build jobs',
      cells: [
        ['Option', 'Default', 'Meaning'],
        ['--fast', 'off', 'skip the slow checks'],
        ['--jobs', '4', 'parallel build jobs'],
      ],
    },
    { type: 'NarrativeText', text: 'Run the build with:' },
    { type: 'CodeSnippet', text: 'make build --jobs 8' },
  ];
  return caseOf('rst', 'sphinx-install', 'rst', encoder.encode(rst), expected);
}

/** An Org agenda file: keywords, TODO headlines with tags, drawers, check lists, a table with rules. */
function orgAgenda(): EvalCase {
  const org = `#+TITLE: Garden Plan
#+STARTUP: overview

* TODO Spring planting                                          :garden:
  SCHEDULED: <2024-04-01 Mon>
  :PROPERTIES:
  :EFFORT: 2h
  :END:
  Plant the tomatoes once the soil is warm enough to work.
  - [X] Buy seedlings from the market
  - [ ] Build the raised bed
    - cut the boards to length
** DONE Order compost
* Harvest log
|--------+------|
| Crop   | Kilo |
|--------+------|
| Beans  |  4.5 |
| Squash |   12 |
|--------+------|
`;
  const expected: ExpectedElement[] = [
    { type: 'Title', text: 'Garden Plan' },
    { type: 'Title', text: 'Spring planting' },
    { type: 'NarrativeText', text: 'Plant the tomatoes once the soil is warm enough to work.' },
    { type: 'ListItem', text: 'Buy seedlings from the market' },
    { type: 'ListItem', text: 'Build the raised bed' },
    { type: 'ListItem', text: 'cut the boards to length' },
    { type: 'Title', text: 'Order compost' },
    { type: 'Title', text: 'Harvest log' },
    {
      type: 'Table',
      text: 'Crop Kilo\nBeans 4.5\nSquash 12',
      cells: [
        ['Crop', 'Kilo'],
        ['Beans', '4.5'],
        ['Squash', '12'],
      ],
    },
  ];
  return caseOf('org', 'agenda', 'org', encoder.encode(org), expected);
}

/** An EPUB 3 with a navigation document in the spine, chapters in a sub-folder, a windows-1252 chapter. */
function epub3(): EvalCase {
  const nav = `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
<nav epub:type="toc"><h1>Contents</h1><ol><li><a href="text/one.xhtml">The Lighthouse</a></li><li><a href="text/two.xhtml">The Storm</a></li></ol></nav></body></html>`;
  const one = `<?xml version="1.0" encoding="windows-1252"?><html xmlns="http://www.w3.org/1999/xhtml"><body><section>
<header><h1>The Lighthouse</h1></header><p>The keeper’s daughter climbed the 120 steps every evening at dusk.</p></section></body></html>`;
  const two = `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><body>
<h1>The Storm</h1><p>By midnight the waves were breaking over the gallery rail.</p><div/><p>Nobody slept on the island that night.</p></body></html>`;
  const data = makeEpub(
    [
      { name: 'nav.xhtml', body: nav },
      { name: 'text/one.xhtml', body: '' },
      { name: 'text/two.xhtml', body: two },
    ],
    { files: { 'OEBPS/text/one.xhtml': iconv.encode(one, 'windows-1252') } },
  );
  const expected: ExpectedElement[] = [
    { type: 'Title', text: 'Contents' },
    { type: 'ListItem', text: 'The Lighthouse' },
    { type: 'ListItem', text: 'The Storm' },
    { type: 'Title', text: 'The Lighthouse' },
    { type: 'NarrativeText', text: 'The keeper’s daughter climbed the 120 steps every evening at dusk.' },
    { type: 'Title', text: 'The Storm' },
    { type: 'NarrativeText', text: 'By midnight the waves were breaking over the gallery rail.' },
    { type: 'NarrativeText', text: 'Nobody slept on the island that night.' },
  ];
  return caseOf('epub', 'epub3-nav-subfolders', 'epub', data, expected);
}

export const source: CaseSource = {
  area: 'markup',
  async cases() {
    const cases: EvalCase[] = [];
    for (const [name, blocks] of [
      ['report', REPORT],
      ['guide', GUIDE],
    ] as const) {
      const expected = expectedOf(blocks);
      cases.push(caseOf('html', name, 'html', encoder.encode(toHtml(blocks)), expected));
      cases.push(caseOf('md', name, 'md', encoder.encode(toMarkdown(blocks)), expected));
      cases.push(caseOf('rst', name, 'rst', encoder.encode(toRst(blocks)), expected));
      cases.push(caseOf('org', name, 'org', encoder.encode(toOrg(blocks)), expected));
      cases.push(caseOf('epub', name, 'epub', toEpub(blocks), expected));
    }
    const chrome: ExpectedElement[] = [
      { type: 'Header', text: 'Home News' },
      ...expectedOf(REPORT),
      { type: 'Footer', text: 'Harbour Authority 2024' },
    ];
    cases.push(caseOf('html', 'page-with-chrome', 'html', encoder.encode(toHtml(REPORT, true)), chrome));
    cases.push(legacyHtml());
    cases.push(xmlCatalogue());
    cases.push(messyHtml(), messyMarkdown(), sphinxRst(), orgAgenda(), epub3());
    return cases;
  },
};
