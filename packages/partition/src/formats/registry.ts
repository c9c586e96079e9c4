import type { FileTypeInfo } from '../detect/file-types.js';
import { ServiceError } from '../errors.js';
import type { FormatModule, FormatPartitioner } from './format.js';

/**
 * File type id (detect/file-types.ts) → its partitioner, imported lazily so that partitioning a text
 * file never loads the PDF engine or OCR models. Every format lives in `formats/<name>/partition.ts`.
 */
const LOADERS: Record<string, () => Promise<FormatModule>> = {
  txt: () => import('./txt/partition.js'),
  md: () => import('./md/partition.js'),
  rst: () => import('./rst/partition.js'),
  org: () => import('./org/partition.js'),
  html: () => import('./html/partition.js'),
  xml: () => import('./xml/partition.js'),
  csv: () => import('./csv/partition.js'),
  tsv: () => import('./csv/partition.js'),
  json: () => import('./json/partition.js'),
  ndjson: () => import('./json/partition.js'),
  eml: () => import('./eml/partition.js'),
  msg: () => import('./msg/partition.js'),
  docx: () => import('./docx/partition.js'),
  pptx: () => import('./pptx/partition.js'),
  xlsx: () => import('./xlsx/partition.js'),
  xls: () => import('./xlsx/partition.js'),
  odt: () => import('./odt/partition.js'),
  epub: () => import('./epub/partition.js'),
  rtf: () => import('./rtf/partition.js'),
  doc: () => import('./legacy-office/partition.js'),
  ppt: () => import('./legacy-office/partition.js'),
  pdf: () => import('./pdf/partition.js'),
  png: () => import('./image/partition.js'),
  jpg: () => import('./image/partition.js'),
  tiff: () => import('./image/partition.js'),
  bmp: () => import('./image/partition.js'),
  webp: () => import('./image/partition.js'),
  heic: () => import('./image/partition.js'),
  gif: () => import('./image/partition.js'),
};

export function supportedFormatIds(): string[] {
  return Object.keys(LOADERS);
}

export async function loadPartitioner(fileType: FileTypeInfo): Promise<FormatPartitioner> {
  const loader = LOADERS[fileType.id];
  if (!loader)
    throw new ServiceError('unsupported_file_type', `File type ${fileType.mime} is not supported.`);
  return (await loader()).partition;
}
