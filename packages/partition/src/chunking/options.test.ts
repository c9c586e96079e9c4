import { describe, expect, it } from 'vitest';
import { isServiceError } from '../errors.js';
import { mergeOptionSets, parseOptionStrings } from '../options/fields.js';
import { partitionOptionSet } from '../options/partition-options.js';
import { chunkingOptionSet, pickChunkingOptions, resolveChunkingOptions } from './options.js';

function fieldsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (isServiceError(error) && error.code === 'invalid_option')
      return error.details?.map((d) => d.field) ?? [];
    throw error;
  }
  throw new Error('expected an invalid_option error');
}

describe('chunking options', () => {
  it('no strategy means no chunking', () => {
    expect(resolveChunkingOptions({})).toBeUndefined();
    expect(resolveChunkingOptions({ max_characters: 100 })).toBeUndefined();
  });

  it('applies the documented defaults', () => {
    const basic = resolveChunkingOptions({ chunking_strategy: 'basic' })!;
    expect(basic).toMatchObject({
      hardMax: 500,
      softMax: 500,
      fillLimit: 500,
      overlap: 0,
      overlapAll: false,
      combineUnder: 0,
      multipageSections: true,
      includeOrigElements: true,
      similarityThreshold: 0.5,
    });
    // -- by_title combines sections under max_characters, capped by new_after_n_chars --
    expect(resolveChunkingOptions({ chunking_strategy: 'by_title' })!.combineUnder).toBe(500);
    expect(
      resolveChunkingOptions({ chunking_strategy: 'by_title', max_characters: 1000, new_after_n_chars: 300 })!
        .combineUnder,
    ).toBe(300);
    expect(
      resolveChunkingOptions({ chunking_strategy: 'by_title', combine_text_under_n_chars: 0 })!.combineUnder,
    ).toBe(0);
  });

  it('keeps room for the overlap prefix with overlap_all', () => {
    const resolved = resolveChunkingOptions({
      chunking_strategy: 'basic',
      max_characters: 100,
      overlap: 10,
      overlap_all: true,
    })!;
    expect(resolved.fillLimit).toBe(88);
  });

  it('rejects values out of range, naming the field', () => {
    expect(fieldsOf(() => resolveChunkingOptions({ chunking_strategy: 'by_topic' }))).toEqual([
      'chunking_strategy',
    ]);
    expect(fieldsOf(() => resolveChunkingOptions({ chunking_strategy: 'basic', max_characters: 0 }))).toEqual(
      ['max_characters'],
    );
    expect(
      fieldsOf(() => resolveChunkingOptions({ chunking_strategy: 'by_similarity', similarity_threshold: 1 })),
    ).toEqual(['similarity_threshold']);
    expect(fieldsOf(() => resolveChunkingOptions({ chunking_strategy: 'basic', overlap: -1 }))).toEqual([
      'overlap',
    ]);
  });

  it('rejects inconsistent limits, naming every field at fault', () => {
    const fields = fieldsOf(() =>
      resolveChunkingOptions({
        chunking_strategy: 'by_title',
        max_characters: 100,
        new_after_n_chars: 200,
        overlap: 100,
        combine_text_under_n_chars: 101,
      }),
    );
    expect(fields).toEqual(['new_after_n_chars', 'overlap', 'combine_text_under_n_chars']);
  });

  it('accepts the combine_under_n_chars alias in the library, the CLI and forms', () => {
    const library = resolveChunkingOptions({
      chunking_strategy: 'by_title',
      combine_under_n_chars: 50,
    } as never)!;
    expect(library.combineUnder).toBe(50);
    const form = parseOptionStrings(chunkingOptionSet, {
      chunking_strategy: 'by_title',
      combine_under_n_chars: '50',
      max_characters: '800',
      multipage_sections: 'false',
    });
    expect(form).toMatchObject({
      combine_text_under_n_chars: 50,
      max_characters: 800,
      multipage_sections: false,
    });
    expect(
      fieldsOf(() =>
        resolveChunkingOptions({
          chunking_strategy: 'by_title',
          combine_under_n_chars: 50,
          combine_text_under_n_chars: 60,
        } as never),
      ),
    ).toEqual(['combine_text_under_n_chars']);
  });

  it('rejects unknown option names (typos do not pass silently)', () => {
    expect(() => resolveChunkingOptions({ chunking_strategy: 'basic', max_chars: 10 } as never)).toThrow(
      /Unknown option: max_chars/,
    );
  });

  it('picks the chunking options out of merged partition + chunking options', () => {
    const merged = parseOptionStrings(mergeOptionSets(partitionOptionSet, chunkingOptionSet), {
      strategy: 'fast',
      chunking_strategy: 'by_page',
      max_characters: '300',
    });
    const picked = pickChunkingOptions(merged);
    expect(picked).not.toHaveProperty('strategy');
    expect(resolveChunkingOptions(picked)).toMatchObject({ strategy: 'by_page', hardMax: 300 });
  });
});
