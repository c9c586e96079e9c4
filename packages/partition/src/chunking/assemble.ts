import type { Element } from '../elements/element.js';
import type { ElementType } from '../elements/element-types.js';
import { hashElementId, uniqueElementId } from '../elements/ids.js';
import type { ElementMetadata } from '../elements/metadata.js';
import { elementsToBase64Gzip } from '../elements/serialize.js';
import { consolidateMetadata, metadataForPiece, type Placed } from './metadata.js';
import { ELEMENT_SEPARATOR, type ResolvedChunkingOptions } from './options.js';
import type { PreChunk, TablePreChunk, TextPreChunk } from './pre-chunk.js';
import { splitTable } from './table-split.js';
import { overlapTail, splitText } from './text-split.js';

/**
 * Assembling: each pre-chunk becomes one output element, or several when its text is longer than the
 * hard limit. Text groups become CompositeElements; a table stays a Table (or TableChunk) when it fits and
 * becomes TableChunks when it does not. Every output gets consolidated metadata, `is_continuation` on the
 * second and later pieces of a split, `orig_elements` when asked for, and an id by the usual rules.
 */

export interface AssembleContext {
  options: ResolvedChunkingOptions;
  unique_element_ids: boolean;
  /** False for by_page: overlap_all never carries text from one page into the next page's chunk. */
  overlapAcrossPages: boolean;
}

export function assembleChunks(preChunks: readonly PreChunk[], context: AssembleContext): Element[] {
  const chunks: Element[] = [];
  let previous: { text: string; page: number | undefined } | undefined;
  for (const preChunk of preChunks) {
    if (preChunk.kind === 'table') {
      chunks.push(...assembleTable(preChunk, context));
      // -- overlap_all runs between text chunks only; a table in between does not break the chain --
      continue;
    }
    const carryOver =
      previous && (context.overlapAcrossPages || previous.page === preChunk.page) ? previous.text : '';
    const pieces = assembleText(preChunk, context, carryOver);
    chunks.push(...pieces);
    previous = { text: pieces[pieces.length - 1]!.text, page: preChunk.page };
  }
  return chunks;
}

function assembleText(preChunk: TextPreChunk, context: AssembleContext, previousText: string): Element[] {
  const { options } = context;
  const prefix = options.overlapAll ? overlapTail(previousText, options.overlap) : '';
  const head = prefix ? prefix + ELEMENT_SEPARATOR : '';
  const placed: Placed[] = [];
  let offset = head.length;
  preChunk.textElements.forEach((element, index) => {
    placed.push({ element, offset });
    offset += preChunk.texts[index]!.length + ELEMENT_SEPARATOR.length;
  });
  const text = head + preChunk.texts.join(ELEMENT_SEPARATOR);
  const metadata = consolidateMetadata(preChunk.elements, placed);
  const orig = origElements(preChunk.elements, options);
  if (text.length <= options.hardMax) {
    return [makeChunk('CompositeElement', text, withOrig(metadata, orig), context)];
  }
  return splitText(text, options.hardMax, options.overlap, head.length).map((piece, index) => {
    const pieceMetadata = metadataForPiece(metadata, piece.text, piece.start);
    if (index > 0) pieceMetadata.is_continuation = true;
    return makeChunk('CompositeElement', piece.text, withOrig(pieceMetadata, orig), context);
  });
}

function assembleTable(preChunk: TablePreChunk, context: AssembleContext): Element[] {
  const { table } = preChunk;
  const { options } = context;
  const metadata = consolidateMetadata([table], [], { table: true });
  const orig = origElements(preChunk.elements, options);
  if (table.text.length <= options.hardMax) {
    return table.text.trim() === ''
      ? []
      : [makeChunk(table.type, table.text, withOrig(metadata, orig), context)];
  }
  delete metadata.text_as_html;
  return splitTable(table, options.hardMax).map((piece, index) => {
    const pieceMetadata = metadataForPiece(metadata, piece.text, undefined);
    if (piece.html !== undefined) pieceMetadata.text_as_html = piece.html;
    if (index > 0) pieceMetadata.is_continuation = true;
    return makeChunk('TableChunk', piece.text, withOrig(pieceMetadata, orig), context);
  });
}

function origElements(elements: readonly Element[], options: ResolvedChunkingOptions): string | undefined {
  return options.includeOrigElements ? elementsToBase64Gzip(elements) : undefined;
}

function withOrig(metadata: ElementMetadata, orig: string | undefined): ElementMetadata {
  if (orig !== undefined) metadata.orig_elements = orig;
  return metadata;
}

function makeChunk(
  type: ElementType,
  text: string,
  metadata: ElementMetadata,
  context: AssembleContext,
): Element {
  const element_id = context.unique_element_ids ? uniqueElementId() : hashElementId(text);
  return { type, element_id, text, metadata };
}
