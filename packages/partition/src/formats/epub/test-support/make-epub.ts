import { strToU8, type Zippable, zipSync } from 'fflate';

/**
 * Builds small EPUB files for tests and the evaluation: a mimetype entry, container.xml, an OPF with a
 * manifest and spine, and one XHTML file per chapter. `files` adds or overrides raw entries.
 */
export interface EpubChapter {
  /** File name inside OEBPS/. */
  name: string;
  /** The chapter's <body> content (or a whole document when it starts with <?xml or <html). */
  body: string;
}

export interface EpubOptions {
  title?: string;
  language?: string;
  /** Raw entries added to (or replacing) the generated ones, e.g. images or a broken container.xml. */
  files?: Record<string, Uint8Array | string>;
  /** Spine order as chapter names (defaults to the chapters' order). */
  spine?: string[];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export function chapterDocument(body: string, title = 'Chapter'): string {
  if (/^\s*<(?:\?xml|html)/i.test(body)) return body;
  return `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${escapeXml(title)}</title></head>
<body>${body}</body></html>`;
}

export function makeEpub(chapters: EpubChapter[], options: EpubOptions = {}): Uint8Array {
  const manifest = chapters
    .map(
      (chapter, index) =>
        `<item id="c${index}" href="${escapeXml(chapter.name)}" media-type="application/xhtml+xml"/>`,
    )
    .join('\n    ');
  const order = options.spine ?? chapters.map((chapter) => chapter.name);
  const spine = order
    .map((name) => `<itemref idref="c${chapters.findIndex((chapter) => chapter.name === name)}"/>`)
    .join('\n    ');
  const opf = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000000</dc:identifier>
    <dc:title>${escapeXml(options.title ?? 'Test Book')}</dc:title>
    <dc:language>${escapeXml(options.language ?? 'en')}</dc:language>
  </metadata>
  <manifest>
    ${manifest}
  </manifest>
  <spine>
    ${spine}
  </spine>
</package>`;
  const files: Zippable = {
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(`<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`),
    'OEBPS/content.opf': strToU8(opf),
  };
  for (const chapter of chapters) files[`OEBPS/${chapter.name}`] = strToU8(chapterDocument(chapter.body));
  for (const [name, content] of Object.entries(options.files ?? {})) {
    files[name] = typeof content === 'string' ? strToU8(content) : content;
  }
  return zipSync(files);
}
