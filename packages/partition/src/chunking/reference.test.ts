import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Element } from '../elements/element.js';
import { elementsFromValue } from '../elements/serialize.js';
import { chunkSync } from './chunk.js';
import { origOf, wordsOf } from './test-support/elements.js';

/**
 * Our chunker against the reference library's expected outputs (docs/chunking.md, "Compared with the
 * reference", explains each difference that remains). Skips when the shared samples are absent.
 */
const EXPECTED = join(import.meta.dirname, '../../../../../shared/samples/unstructured-expected-output');

interface ReferenceChunk {
  type: string;
  element_id: string;
  text: string;
  metadata: Record<string, unknown> & { orig_elements?: string; is_continuation?: boolean };
}

function readReference(path: string): ReferenceChunk[] {
  return JSON.parse(readFileSync(join(EXPECTED, path), 'utf8')) as ReferenceChunk[];
}

/** The reference compresses orig_elements with zlib (not gzip). */
function referenceOrig(chunk: ReferenceChunk): Element[] {
  const json = inflateSync(Buffer.from(chunk.metadata.orig_elements!, 'base64')).toString('utf8');
  return elementsFromValue(JSON.parse(json));
}

/** Groups of original element ids, one per distinct chunk (the pieces of a split element share one). */
function groups<T>(chunks: T[], orig: (chunk: T) => Element[]): string[][] {
  const result: string[][] = [];
  for (const chunk of chunks) {
    const ids = orig(chunk).map((e) => e.element_id);
    const last = result[result.length - 1];
    if (!(last && JSON.stringify(last) === JSON.stringify(ids))) result.push(ids);
  }
  return result;
}

describe.skipIf(!existsSync(EXPECTED))('compared with the reference expected outputs', () => {
  describe('handbook-1p.docx, basic, max_characters 150, overlap 20', () => {
    const reference = readReference('local-single-file-basic-chunking/handbook-1p.docx.json');
    const input: Element[] = [];
    for (const [index, chunk] of reference.entries()) {
      if (index > 0 && chunk.metadata.orig_elements === reference[index - 1]!.metadata.orig_elements)
        continue;
      input.push(...referenceOrig(chunk));
    }
    const ours = chunkSync(input, { chunking_strategy: 'basic', max_characters: 150, overlap: 20 });

    it('groups the same elements into chunks (Header kept with the text, PageBreak inside a chunk)', () => {
      expect(groups(ours, origOf)).toEqual(groups(reference, referenceOrig));
      expect(input.map((e) => e.type)).toContain('PageBreak');
    });

    it('gives identical text and metadata for every chunk made of whole elements', () => {
      const whole = (chunks: { text: string; metadata: { is_continuation?: boolean } }[], index: number) =>
        !chunks[index]!.metadata.is_continuation && !chunks[index + 1]?.metadata.is_continuation;
      const oursWhole = ours.filter((_, index) => whole(ours, index));
      const referenceWhole = reference.filter((_, index) => whole(reference, index));
      expect(oursWhole.map((c) => c.text)).toEqual(referenceWhole.map((c) => c.text));
      expect(oursWhole.length).toBe(5);
      for (const [index, chunk] of oursWhole.entries()) {
        const { orig_elements: _a, ...expected } = referenceWhole[index]!.metadata;
        const { orig_elements: _b, ...actual } = chunk.metadata;
        expect(actual).toEqual(expected);
      }
    });

    it('splits long elements into pieces within the limit, with whole-word overlap of at most 20 characters', () => {
      for (const [index, chunk] of ours.entries()) {
        expect(chunk.text.length).toBeLessThanOrEqual(150);
        if (!chunk.metadata.is_continuation) continue;
        // -- the longest run of leading words that ends the previous piece is the overlap --
        const previous = ours[index - 1]!.text;
        const words = wordsOf(chunk.text);
        let carried = '';
        for (let count = 1; count <= words.length; count++) {
          const candidate = words.slice(0, count).join(' ');
          if (candidate.length > 20) break;
          if (previous.endsWith(` ${candidate}`)) carried = candidate;
        }
        expect(carried, `overlap into piece ${index}`).not.toBe('');
      }
    });

    it('splits into about as many pieces as the reference (it prefers sentence ends, so sometimes one more)', () => {
      const pieceCounts = (chunks: { metadata: { is_continuation?: boolean } }[]) =>
        chunks.reduce<number[]>((counts, chunk) => {
          if (chunk.metadata.is_continuation) counts[counts.length - 1]!++;
          else counts.push(1);
          return counts;
        }, []);
      const oursCounts = pieceCounts(ours);
      const referenceCounts = pieceCounts(reference);
      expect(oursCounts).toHaveLength(referenceCounts.length);
      oursCounts.forEach((count, index) => {
        expect(Math.abs(count - referenceCounts[index]!)).toBeLessThanOrEqual(1);
      });
      expect(ours.length - reference.length).toBeLessThanOrEqual(2);
    });

    it('gives every piece the same metadata as the reference piece (is_continuation on the second and later)', () => {
      const byGroup = (chunks: { metadata: Record<string, unknown> }[]) => {
        const result: Record<string, unknown>[][] = [];
        for (const { metadata } of chunks) {
          const { orig_elements: _, ...rest } = metadata;
          if (metadata.is_continuation) result[result.length - 1]!.push(rest);
          else result.push([rest]);
        }
        return result;
      };
      const oursGroups = byGroup(ours);
      const referenceGroups = byGroup(reference);
      oursGroups.forEach((pieces, group) => {
        pieces.forEach((metadata, piece) => {
          const expected = referenceGroups[group]![Math.min(piece, referenceGroups[group]!.length - 1)]!;
          expect(metadata).toEqual(expected);
        });
      });
    });
  });

  describe('multi-column-2p.pdf, by_title, max_characters 2000, multipage_sections false, no orig_elements', () => {
    const reference = readReference('local-single-file-chunk-no-orig-elements/multi-column-2p.pdf.json');
    // -- the reference kept no orig_elements: rebuild an input from the chunk texts (elements are joined
    // by blank lines; each chunk starts a section, so its first element is taken as a Title) --
    const input: Element[] = reference.flatMap((chunk, chunkIndex) =>
      chunk.text.split('\n\n').map((text, index) => ({
        type: index === 0 ? ('Title' as const) : ('NarrativeText' as const),
        element_id: `${chunkIndex}-${index}`,
        text,
        metadata: { page_number: chunk.metadata.page_number as number, languages: ['eng'] },
      })),
    );
    const ours = chunkSync(input, {
      chunking_strategy: 'by_title',
      max_characters: 2000,
      multipage_sections: false,
      include_orig_elements: false,
    });

    it('reproduces the same chunks: small sections are not combined past max_characters or a page change', () => {
      expect(ours.map((c) => c.text)).toEqual(reference.map((c) => c.text));
      expect(ours.map((c) => c.metadata.page_number)).toEqual(reference.map((c) => c.metadata.page_number));
      expect(ours.every((c) => c.type === 'CompositeElement' && c.metadata.orig_elements === undefined)).toBe(
        true,
      );
    });
  });
});
