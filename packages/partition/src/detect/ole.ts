import { type FileTypeInfo, fileTypeById } from './file-types.js';

/**
 * OLE2 compound files hold .doc, .ppt, .xls and .msg alike. Their stream names tell them apart; the names
 * are stored as UTF-16LE in the directory sectors, so a byte search finds them without a full CFB parser.
 */
const STREAM_MARKERS: [string, string][] = [
  ['__substg1.0_', 'msg'],
  ['WordDocument', 'doc'],
  ['PowerPoint Document', 'ppt'],
  ['Workbook', 'xls'],
  ['Book', 'xls'],
];

export function classifyOleContainer(data: Uint8Array, byExtension: FileTypeInfo | undefined): FileTypeInfo {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (byExtension && ['doc', 'ppt', 'xls', 'msg'].includes(byExtension.id)) {
    const [marker] = STREAM_MARKERS.find(([, id]) => id === byExtension.id) ?? [];
    if (marker && buffer.includes(Buffer.from(marker, 'utf16le'))) return byExtension;
  }
  for (const [marker, id] of STREAM_MARKERS) {
    if (buffer.includes(Buffer.from(marker, 'utf16le'))) return fileTypeById(id);
  }
  return byExtension ?? { id: 'cfb', mime: 'application/x-cfb', extensions: [], supported: false };
}
