import { ServiceError } from '../errors.js';
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

const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');
const ENCRYPTION_INFO = Buffer.from('EncryptionInfo', 'utf16le');

export function classifyOleContainer(data: Uint8Array, byExtension: FileTypeInfo | undefined): FileTypeInfo {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // Password-protected .docx/.xlsx/.pptx are OLE files holding the encrypted zip (MS-OFFCRYPTO).
  if (buffer.includes(ENCRYPTED_PACKAGE) && buffer.includes(ENCRYPTION_INFO)) {
    const what = byExtension ? `${byExtension.id} ` : '';
    throw new ServiceError(
      'encrypted_document',
      `The file is a password-protected ${what}Office document; remove the password and try again.`,
    );
  }
  if (byExtension && ['doc', 'ppt', 'xls', 'msg'].includes(byExtension.id)) {
    const [marker] = STREAM_MARKERS.find(([, id]) => id === byExtension.id) ?? [];
    if (marker && buffer.includes(Buffer.from(marker, 'utf16le'))) return byExtension;
  }
  for (const [marker, id] of STREAM_MARKERS) {
    if (buffer.includes(Buffer.from(marker, 'utf16le'))) return fileTypeById(id);
  }
  return byExtension ?? { id: 'cfb', mime: 'application/x-cfb', extensions: [], supported: false };
}
