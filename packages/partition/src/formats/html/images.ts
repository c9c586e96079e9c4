import type { Element } from 'domhandler';
import type { ElementMetadata } from '../../elements/metadata.js';

/**
 * <img> → Image element metadata. Images are never fetched: a data: URI is decoded into
 * image_base64/image_mime_type (which the pipeline keeps only with extract_image_block_types), a
 * container can resolve its own relative paths (EPUB, e-mail cid:) through a callback, and any other
 * source is recorded as image_url.
 */

export interface ResolvedImage {
  /** Base64 of the image bytes. */
  base64: string;
  mimeType: string;
}

/** Resolves an image source inside the container the HTML came from (EPUB zip, e-mail parts). */
export type ImageResolver = (src: string) => ResolvedImage | undefined;

const DATA_URI = /^data:([^;,]*)((?:;[^;,]*)*?),(.*)$/is;

export function decodeDataUri(uri: string): ResolvedImage | undefined {
  const match = DATA_URI.exec(uri.trim());
  if (!match) return undefined;
  const mimeType = (match[1] || 'text/plain').toLowerCase();
  const isBase64 = /;base64$/i.test(match[2] ?? '');
  const payload = match[3] ?? '';
  if (isBase64) return { base64: payload.replace(/\s+/g, ''), mimeType };
  try {
    return { base64: Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64'), mimeType };
  } catch {
    return undefined; // malformed percent-encoding: not an image we can use
  }
}

/** Spacer GIFs and tracking pixels declare themselves 1×1 (or 0×0); they are not content. */
function isSpacer(element: Element): boolean {
  const width = Number.parseInt(element.attribs.width ?? '', 10);
  const height = Number.parseInt(element.attribs.height ?? '', 10);
  return (Number.isFinite(width) && width <= 2) || (Number.isFinite(height) && height <= 2);
}

export interface ImageDraftParts {
  text: string;
  metadata: ElementMetadata;
}

export function imageParts(
  element: Element,
  resolve: ImageResolver | undefined,
): ImageDraftParts | undefined {
  if (isSpacer(element)) return undefined;
  const src = (element.attribs.src ?? element.attribs['data-src'] ?? '').trim();
  const text = (element.attribs.alt ?? element.attribs.title ?? '').replace(/\s+/g, ' ').trim();
  if (src === '' && text === '') return undefined;
  const metadata: ElementMetadata = {};
  const embedded = src.toLowerCase().startsWith('data:')
    ? decodeDataUri(src)
    : src
      ? resolve?.(src)
      : undefined;
  if (embedded) {
    metadata.image_base64 = embedded.base64;
    metadata.image_mime_type = embedded.mimeType;
  } else if (src !== '' && !src.toLowerCase().startsWith('data:')) {
    metadata.image_url = src;
  }
  return { text, metadata };
}
