import { describe, expect, it } from 'vitest';
import { extractLocally } from './local-extractor.js';

const types = (text: string) => Object.fromEntries(extractLocally(text).items.map((i) => [i.entity, i.type]));

describe('local entity extraction', () => {
  it('finds people, organisations, places, dates and money with clear type names', () => {
    expect(types('Barack Obama visited Microsoft in Seattle on March 3, 2021 and paid $5 million.')).toEqual({
      'Barack Obama': 'PERSON',
      Microsoft: 'ORGANIZATION',
      Seattle: 'LOCATION',
      'March 3, 2021': 'DATE',
      '$5 million': 'MONEY',
    });
  });

  it('finds percentages, e-mail addresses and URLs, and ignores bare numbers', () => {
    const found = types(
      'Revenue rose 12% to 450 units. Write to info@acme.com or see https://acme.com/report.',
    );
    expect(found['12%']).toBe('PERCENT');
    expect(found['info@acme.com']).toBe('EMAIL');
    expect(found['https://acme.com/report']).toBe('URL');
    expect(found['450']).toBeUndefined();
  });

  it('splits comma-separated places and lists each entity once', () => {
    const result = extractLocally(
      'Offices in London, United Kingdom and Paris. London is the largest; Paris is new.',
    );
    expect(result.items.filter((i) => i.type === 'LOCATION').map((i) => i.entity)).toEqual([
      'London',
      'United Kingdom',
      'Paris',
    ]);
  });

  it('relates names joined by a verb phrase, sharing it across "and"', () => {
    const { relationships } = extractLocally(
      'Microsoft Corporation was founded by Bill Gates and Paul Allen in 1975. Toyota opened a factory in Texas.',
    );
    expect(relationships).toEqual([
      { from: 'Microsoft Corporation', relationship: 'was founded by', to: 'Bill Gates' },
      { from: 'Microsoft Corporation', relationship: 'was founded by', to: 'Paul Allen' },
      { from: 'Toyota', relationship: 'opened a factory in', to: 'Texas' },
    ]);
  });

  it('gives no relationship without a verb, across sentences, or over long phrases', () => {
    expect(extractLocally('Microsoft in Seattle.').relationships).toEqual([]);
    expect(extractLocally('Angela Merkel spoke. Emmanuel Macron listened.').relationships).toEqual([]);
    expect(
      extractLocally('Angela Merkel, after a long and tiring day of talks, finally met Emmanuel Macron.')
        .relationships,
    ).toEqual([]);
  });

  it('returns empty lists for text without entities', () => {
    expect(extractLocally('the quick brown fox jumps over the lazy dog')).toEqual({
      items: [],
      relationships: [],
    });
    expect(extractLocally('   ')).toEqual({ items: [], relationships: [] });
  });
});
