#!/usr/bin/env node
/**
 * `npm run demo`: the quick start's main job on the embedded default. Writes a few example documents
 * (the project writes them itself; nothing is downloaded), partitions them with `service-ingest local`,
 * and prints a summary of the elements found.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const base = join(root, 'demo-output');
const input = join(base, 'input');
const output = join(base, 'elements');
rmSync(base, { recursive: true, force: true });
mkdirSync(join(input, 'notes'), { recursive: true });

const examples = {
  'report.txt': `QUARTERLY REPORT

Revenue grew by twelve percent in the third quarter, driven by strong demand in Europe.
Operating costs stayed flat because the new warehouse opened on schedule.

Next steps

• Open two new regional offices.
• Hire a head of customer support.
`,
  'guide.md': `# Installation Guide

Follow these steps to install the service on a new machine.

## Requirements

- Node.js 20 or newer
- Two CPU cores

| Component | Port |
| --- | --- |
| API server | 8000 |
| Web UI | 8080 |

\`\`\`sh
npm install && npm run demo
\`\`\`
`,
  'page.html': `<!doctype html><html lang="en"><head><title>Team page</title><style>p{}</style></head>
<body><h1>Our Team</h1><p>We build tools that turn documents into structured data.</p>
<ul><li>Parsing</li><li>Chunking</li></ul>
<table><tr><th>Name</th><th>Role</th></tr><tr><td>Ada</td><td>Engineer</td></tr></table></body></html>`,
  'people.csv': 'name,city,joined\nAda,London,2021\nGrace,New York,2019\n',
  'notes/meeting.eml': `From: Ada <ada@example.com>
To: Grace <grace@example.com>
Subject: Planning meeting
Date: Mon, 2 Nov 2026 10:00:00 +0000
Content-Type: text/plain; charset=utf-8

Hi Grace,

The planning meeting is moved to Thursday at ten. Please bring the budget figures.

Thanks, Ada
`,
};
for (const [name, content] of Object.entries(examples)) writeFileSync(join(input, name), content);

const cli = join(root, 'packages/ingest/dist/cli/main.js');
const run = spawnSync(
  process.execPath,
  [cli, 'local', '--input-path', input, '--recursive', '--output-dir', output],
  {
    stdio: 'inherit',
  },
);

console.log(`\nElements written to ${relative(process.cwd(), output) || output}:`);
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
for (const file of walk(output).sort()) {
  const elements = JSON.parse(readFileSync(file, 'utf8'));
  const counts = {};
  for (const element of elements) counts[element.type] = (counts[element.type] ?? 0) + 1;
  const summary = Object.entries(counts)
    .map(([type, count]) => `${count} ${type}`)
    .join(', ');
  console.log(`  ${relative(output, file).padEnd(24)} ${summary}`);
}
process.exitCode = run.status ?? 1;
