import { extname } from 'node:path';
import { draft, type ElementDraft } from '../../elements/element.js';
import { ServiceError } from '../../errors.js';
import { toIso6393 } from '../../text/languages.js';
import type { FormatPartitioner } from '../format.js';
import { decodeMarkup } from '../html/decode-markup.js';
import { htmlToDrafts } from '../html/html-to-drafts.js';
import type { ImageResolver } from '../html/images.js';
import { mayUseDeclaredLanguage } from '../html/partition.js';
import { ZipArchive } from '../ooxml/zip-archive.js';
import { type EpubPackage, encryptedPaths, readPackage, resolveHref } from './package.js';

/**
 * EPUB: the zip is opened with the project's zip-bomb-safe reader (entry sizes are checked against
 * limits.maxDecompressedBytes before anything is inflated), container.xml → OPF → spine gives the
 * reading order, and every spine document goes through htmlToDrafts.
 *
 * page_number is the chapter's position in the spine (1-based, every spine document counted, so the
 * numbers are stable whatever a chapter contains); a PageBreak separates chapters (kept with
 * include_page_breaks). Languages come from a chapter's <html lang>, else from the book's dc:language.
 * Images inside the book are embedded as image_base64 only when extract_image_block_types asks for
 * Image; otherwise their path inside the book is kept as image_url.
 */
export const partition: FormatPartitioner = async ({ data, options, limits }) => {
  const archive = ZipArchive.open(data, limits.maxDecompressedBytes);
  const book = readPackage(archive);
  const encrypted = encryptedPaths(archive);
  if (book.spine.some((item) => encrypted.has(item.path))) {
    throw new ServiceError('encrypted_document', 'The EPUB is encrypted (DRM); its chapters cannot be read.');
  }
  const useDeclared = mayUseDeclaredLanguage(options);
  const bookLanguages = useDeclared ? languageCodes(book.language) : undefined;
  const embedImages = options.extract_image_block_types.some((type) => type.toLowerCase() === 'image');
  const drafts: ElementDraft[] = [];
  for (const [index, chapter] of book.spine.entries()) {
    const bytes = archive.read(chapter.path);
    if (!bytes) continue; // a spine entry without its file: the rest of the book is still readable
    const pageNumber = index + 1;
    if (drafts.length > 0) drafts.push(draft('PageBreak', '', { page_number: pageNumber - 1 }));
    const chapterDrafts = htmlToDrafts(decodeMarkup(bytes).text, {
      pageNumber,
      useDeclaredLanguage: useDeclared,
      // header/footer inside a chapter are part of the text, not repeated page chrome.
      detectPageChrome: false,
      resolveImage: embedImages ? imageResolver(archive, book, chapter.path) : undefined,
    });
    for (const item of chapterDrafts) {
      if (bookLanguages && item.metadata && item.metadata.languages === undefined) {
        item.metadata.languages = bookLanguages;
      }
      drafts.push(item);
    }
  }
  return drafts;
};

function languageCodes(language: string | undefined): string[] | undefined {
  if (!language) return undefined;
  try {
    return [toIso6393(language)];
  } catch {
    return undefined;
  }
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

/** Images referenced by a chapter, read from the book (counted against the decompression limit). */
function imageResolver(archive: ZipArchive, book: EpubPackage, chapterPath: string): ImageResolver {
  const mediaTypes = new Map([...book.manifest.values()].map((item) => [item.path, item.mediaType]));
  return (src) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(src)) return undefined; // a URL, not a file in the book
    const path = resolveHref(chapterPath, src);
    const bytes = archive.read(path);
    if (!bytes) return undefined;
    const mimeType =
      mediaTypes.get(path) ?? IMAGE_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    return { base64: Buffer.from(bytes).toString('base64'), mimeType };
  };
}
