import { ServiceError } from '../errors.js';
import type { FileTypeInfo } from '../detect/file-types.js';
import type { FormatModule, FormatPartitioner } from './format.js';

/**
 * File type id → its partitioner, imported lazily so that partitioning a text file never loads the PDF
 * engine or OCR models. Every format lives in `formats/<name>/partition.ts`.
 */
const LOADERS: Record<string, () => Promise<FormatModule>> = {
  txt: () => import('./txt/partition.js'),
};

/** Register or replace a partitioner (used by formats added in other modules and by tests). */
export function registerFormat(id: string, loader: () => Promise<FormatModule>): void {
  LOADERS[id] = loader;
}

export function supportedFormatIds(): string[] {
  return Object.keys(LOADERS);
}

export async function loadPartitioner(fileType: FileTypeInfo): Promise<FormatPartitioner> {
  const loader = LOADERS[fileType.id];
  if (!loader) throw new ServiceError('unsupported_file_type', `File type ${fileType.mime} is not supported.`);
  return (await loader()).partition;
}
