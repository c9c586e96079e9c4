/**
 * Every file type the service knows: the ones it partitions, and a few it recognises only to refuse
 * by name. One table drives detection, dispatch (formats/registry.ts) and docs/formats.md.
 */
export interface FileTypeInfo {
  /** Short id used in code and in `skip_infer_table_types` (the usual extension). */
  id: string;
  /** Canonical MIME type, written to metadata.filetype. */
  mime: string;
  /** Extensions (lower case, without dot); the first is the usual one. */
  extensions: readonly string[];
  /** Other MIME types that mean the same thing (accepted in content_type). */
  aliases?: readonly string[];
  /** Whether a partitioner exists. */
  supported: boolean;
}

const T = (
  id: string,
  mime: string,
  extensions: string[],
  aliases: string[] = [],
  supported = true,
): FileTypeInfo => ({ id, mime, extensions, aliases, supported });

export const FILE_TYPES: readonly FileTypeInfo[] = [
  T('pdf', 'application/pdf', ['pdf'], ['application/x-pdf']),
  T('png', 'image/png', ['png']),
  T('jpg', 'image/jpeg', ['jpg', 'jpeg', 'jpe'], ['image/jpg', 'image/pjpeg']),
  T('tiff', 'image/tiff', ['tiff', 'tif'], ['image/x-tiff']),
  T('bmp', 'image/bmp', ['bmp'], ['image/x-bmp', 'image/x-ms-bmp']),
  T('webp', 'image/webp', ['webp']),
  T('heic', 'image/heic', ['heic', 'heif'], ['image/heif', 'image/heic-sequence', 'image/heif-sequence']),
  T('gif', 'image/gif', ['gif']),
  T('docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', [
    'docx',
    'docm',
    'dotx',
  ]),
  T('doc', 'application/msword', ['doc', 'dot']),
  T('pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', [
    'pptx',
    'pptm',
    'potx',
  ]),
  T('ppt', 'application/vnd.ms-powerpoint', ['ppt', 'pot']),
  T('xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ['xlsx', 'xlsm', 'xltx']),
  T('xls', 'application/vnd.ms-excel', ['xls', 'xlt']),
  T('odt', 'application/vnd.oasis.opendocument.text', ['odt']),
  T('epub', 'application/epub+zip', ['epub']),
  T('rtf', 'application/rtf', ['rtf'], ['text/rtf']),
  T('html', 'text/html', ['html', 'htm', 'xhtml'], ['application/xhtml+xml']),
  T('xml', 'application/xml', ['xml'], ['text/xml']),
  T('json', 'application/json', ['json']),
  T('ndjson', 'application/x-ndjson', ['ndjson', 'jsonl'], ['application/jsonl', 'application/ndjson']),
  T('csv', 'text/csv', ['csv'], ['application/csv']),
  T('tsv', 'text/tab-separated-values', ['tsv', 'tab']),
  T('md', 'text/markdown', ['md', 'markdown'], ['text/x-markdown']),
  T('rst', 'text/x-rst', ['rst'], ['text/prs.fallenstein.rst']),
  T('org', 'text/org', ['org'], ['text/x-org']),
  T('txt', 'text/plain', ['txt', 'text', 'log'], []),
  T('eml', 'message/rfc822', ['eml']),
  T('msg', 'application/vnd.ms-outlook', ['msg'], ['application/x-ole-storage']),
  // Recognised, refused with a clear message:
  T('zip', 'application/zip', ['zip'], ['application/x-zip-compressed'], false),
  T('wav', 'audio/wav', ['wav'], ['audio/x-wav', 'audio/wave'], false),
  T('p7s', 'application/pkcs7-signature', ['p7s'], [], false),
  T('yaml', 'application/yaml', ['yaml', 'yml'], ['text/yaml', 'application/x-yaml'], false),
  T('xsl', 'application/xslt+xml', ['xsl', 'xslt'], [], false),
];

const byId = new Map(FILE_TYPES.map((type) => [type.id, type]));
const byMime = new Map<string, FileTypeInfo>();
const byExtension = new Map<string, FileTypeInfo>();
for (const type of FILE_TYPES) {
  for (const mime of [type.mime, ...(type.aliases ?? [])]) byMime.set(mime, type);
  for (const extension of type.extensions) byExtension.set(extension, type);
}

export function fileTypeById(id: string): FileTypeInfo {
  const type = byId.get(id);
  if (!type) throw new Error(`Unknown file type id: ${id}`);
  return type;
}

/** Look up a MIME type (parameters such as `; charset=` are ignored). */
export function fileTypeByMime(mime: string): FileTypeInfo | undefined {
  return byMime.get(mime.split(';')[0]!.trim().toLowerCase());
}

export function fileTypeByExtension(filename: string | undefined): FileTypeInfo | undefined {
  if (!filename) return undefined;
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot <= 0 && !base.startsWith('.')) return undefined;
  return byExtension.get(base.slice(dot + 1).toLowerCase());
}
