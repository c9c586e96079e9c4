import { describe, expect, it } from 'vitest';
import type { Element } from '../elements/element.js';
import { elementSchema } from '../elements/element.js';
import { enrichElements } from './enrich-elements.js';
import { pickEntityExtractionOptions } from './options.js';

const el = (text: string, id: string): Element => ({
  type: 'NarrativeText',
  element_id: id,
  text,
  metadata: { filename: 'f.txt' },
});

describe('enrichElements', () => {
  it('local: writes metadata.entities on elements with text, in the SPEC shape, without mutating input', async () => {
    const input = [
      el('Angela Merkel met Emmanuel Macron in Berlin on Tuesday.', 'a'),
      el('  ', 'b'),
      el('no names here', 'c'),
    ];
    const output = await enrichElements(input, { entity_extraction: 'local' });
    expect(output[0]!.metadata.entities).toEqual({
      items: [
        { entity: 'Angela Merkel', type: 'PERSON' },
        { entity: 'Emmanuel Macron', type: 'PERSON' },
        { entity: 'Berlin', type: 'LOCATION' },
        { entity: 'Tuesday', type: 'DATE' },
      ],
      relationships: [{ from: 'Angela Merkel', relationship: 'met', to: 'Emmanuel Macron' }],
    });
    expect(output[0]!.metadata.filename).toBe('f.txt');
    expect(output[1]!.metadata.entities).toBeUndefined();
    expect(output[2]!.metadata.entities).toEqual({ items: [], relationships: [] });
    expect(input[0]!.metadata.entities).toBeUndefined();
    for (const element of output) expect(elementSchema.safeParse(element).success).toBe(true);
  });

  it('runs on options picked from a merged options object', async () => {
    const merged = {
      strategy: 'fast',
      chunking_strategy: 'basic',
      entity_extraction: 'local',
      languages: ['eng'],
    };
    const [result] = await enrichElements(
      [el('Jane Doe lives in Paris.', 'a')],
      pickEntityExtractionOptions(merged),
    );
    expect(result!.metadata.entities?.items).toEqual([
      { entity: 'Jane Doe', type: 'PERSON' },
      { entity: 'Paris', type: 'LOCATION' },
    ]);
  });

  it('is off without entity_extraction and rejects unknown engines', async () => {
    const input = [el('Jane Doe', 'a')];
    expect(await enrichElements(input, {})).toEqual(input);
    await expect(enrichElements(input, { entity_extraction: 'spacy' as never })).rejects.toMatchObject({
      code: 'invalid_option',
    });
  });
});
