import { readFileSync } from 'node:fs';
import { partition } from './src/index.js';
const els = await partition({ data: readFileSync(`/work/shared/samples/unstructured-example-docs/pdf/${process.argv[2]}`), filename: 'x.pdf' }, { strategy: 'fast', split_pdf_page: false });
for (const e of els) console.log(`[${e.type} p${e.metadata.page_number}] ${e.text.slice(0, Number(process.argv[3] ?? 160)).replace(/\n/g, ' / ')}`);
