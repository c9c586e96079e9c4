import { describe, expect, it } from 'vitest';
import { documentText } from './document-text.js';

const movie = {
  title: 'Alice in Wonderland',
  year: 1903,
  ethnicity: 'American',
  director: 'Cecil Hepworth',
  cast: null,
  genre: '',
  plot: 'Alice follows a large white rabbit.',
  tags: ['fantasy', 'silent'],
  ratings: { imdb: 6.1, votes: { count: 1200 } },
  crew: [{ name: 'A', role: 'camera' }, { name: 'B' }],
  restored: false,
};

describe('documentText', () => {
  it('writes one "field: value" paragraph per field in document order, nested paths dotted', () => {
    expect(documentText(movie)).toBe(
      [
        'title: Alice in Wonderland',
        'year: 1903',
        'ethnicity: American',
        'director: Cecil Hepworth',
        'plot: Alice follows a large white rabbit.',
        'tags: fantasy, silent',
        'ratings.imdb: 6.1',
        'ratings.votes.count: 1200',
        'crew.name: A',
        'crew.role: camera',
        'crew.name: B',
        'restored: false',
      ].join('\n\n'),
    );
  });

  it('follows the order of the chosen fields, with nested paths and paths through arrays', () => {
    expect(documentText(movie, ['plot', 'director', 'ratings.votes.count', 'crew.name', 'missing'])).toBe(
      'plot: Alice follows a large white rabbit.\n\ndirector: Cecil Hepworth\n\nratings.votes.count: 1200\n\ncrew.name: A, B',
    );
  });

  it('finds keys that contain dots themselves', () => {
    expect(documentText({ 'a.b': { c: 1 } }, ['a.b.c'])).toBe('a.b.c: 1');
  });

  it('gives an empty text for an empty document', () => {
    expect(documentText({})).toBe('');
  });
});
