import { unzipSync } from 'fflate';
import { type FileTypeInfo, fileTypeById, fileTypeByMime } from './file-types.js';

/**
 * Tell zip-based formats apart by their entry names (docx/pptx/xlsx) or their `mimetype` entry
 * (odt/epub). Only the tiny `mimetype` entry is ever inflated, so a zip bomb costs nothing here.
 */
export function classifyZipContainer(data: Uint8Array): FileTypeInfo | undefined {
  const names: string[] = [];
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(data, {
      filter: (file) => {
        names.push(file.name);
        return file.name === 'mimetype' && file.originalSize < 256;
      },
    });
  } catch {
    return undefined; // truncated or corrupt: let the format's partitioner report it precisely
  }
  const mimetype = entries.mimetype ? new TextDecoder().decode(entries.mimetype).trim() : undefined;
  if (mimetype) {
    const known = fileTypeByMime(mimetype);
    if (known) return known;
  }
  if (names.includes('[Content_Types].xml')) {
    if (names.some((name) => name.startsWith('word/'))) return fileTypeById('docx');
    if (names.some((name) => name.startsWith('ppt/'))) return fileTypeById('pptx');
    if (names.some((name) => name.startsWith('xl/'))) return fileTypeById('xlsx');
  }
  return fileTypeById('zip');
}
