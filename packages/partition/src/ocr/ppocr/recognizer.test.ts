import { describe, expect, it } from 'vitest';
import { alphabetFromDictionary, cropWidth, decodeCtc, INPUT_HEIGHT } from './recognizer.js';

const alphabet = alphabetFromDictionary('a\nb\nc\n');

describe('alphabetFromDictionary', () => {
  it('puts the CTC blank first and a space last', () => {
    expect(alphabet).toEqual(['', 'a', 'b', 'c', ' ']);
    expect(alphabetFromDictionary('a\r\nb')).toEqual(['', 'a', 'b', ' ']);
  });
});

describe('decodeCtc', () => {
  it('collapses repeats, drops blanks, and keeps a letter repeated across a blank', () => {
    // steps:            a  a  _  a  b  b  _  _  c  space
    const classes = [1n, 1n, 0n, 1n, 2n, 2n, 0n, 0n, 3n, 4n];
    const probabilities = [0.9, 0.8, 0.99, 0.7, 0.6, 0.5, 0.9, 0.9, 0.4, 0.8];
    const decoded = decodeCtc(classes, probabilities, classes.length, alphabet);
    expect(decoded.text).toBe('aabc ');
    // Mean over the first step of each emitted character.
    expect(decoded.confidence).toBeCloseTo((0.9 + 0.7 + 0.6 + 0.4 + 0.8) / 5, 6);
    expect(decoded.positions).toEqual([0.5, 3.5, 4.5, 8.5, 9.5]);
  });

  it('decodes only the steps asked for (the rest is padding)', () => {
    expect(decodeCtc([1, 2, 3], [1, 1, 1], 2, alphabet).text).toBe('ab');
    expect(decodeCtc([0, 0], [1, 1], 2, alphabet)).toEqual({ text: '', confidence: 0, positions: [] });
  });
});

describe('cropWidth', () => {
  it('keeps the aspect ratio at the model height, within limits', () => {
    expect(cropWidth({ cx: 0, cy: 0, ux: 1, uy: 0, width: 320, height: 32 })).toBe(480);
    expect(cropWidth({ cx: 0, cy: 0, ux: 1, uy: 0, width: 2, height: 32 })).toBe(INPUT_HEIGHT / 4);
    expect(cropWidth({ cx: 0, cy: 0, ux: 1, uy: 0, width: 100_000, height: 10 })).toBe(INPUT_HEIGHT * 50);
  });
});
