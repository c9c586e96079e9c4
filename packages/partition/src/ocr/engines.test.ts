import { distance } from 'fastest-levenshtein';
import { afterAll, describe, expect, it } from 'vitest';
import { closeOcrEngines, getOcrEngine } from './engines.js';
import { resolveOcrLanguages } from './languages.js';
import { drawPage, paragraphLines } from './test-support/text-image.js';

const LINES = [
  'Invoice 2024-0117 for Northwind Traders',
  'Total amount due: $1,234.56 by March 31',
  'Thank you for your business.',
];
const FONT_SIZE = 30;

afterAll(closeOcrEngines);

function characterAccuracy(expected: string, actual: string): number {
  const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
  return 1 - distance(normalise(expected), normalise(actual)) / normalise(expected).length;
}

describe.each(['ppocr', 'tesseract'] as const)('%s engine', (agent) => {
  it('reads generated text lines with boxes, confidences and font sizes', async () => {
    const image = await drawPage({
      width: 900,
      height: 200,
      blocks: paragraphLines(LINES, { x: 30, y: 50, fontSize: FONT_SIZE }),
    });
    const engine = await getOcrEngine(agent);
    expect(await getOcrEngine(agent)).toBe(engine); // one engine per thread, reused
    const lines = await engine.recognize(image, resolveOcrLanguages(agent, ['en']));
    expect(characterAccuracy(LINES.join('\n'), lines.map((line) => line.text).join('\n'))).toBeGreaterThan(
      0.95,
    );
    expect(lines).toHaveLength(3);
    for (const [index, line] of lines.entries()) {
      expect(line.origin).toBe('ocr');
      expect(line.confidence).toBeGreaterThan(0.5);
      expect(line.confidence).toBeLessThanOrEqual(1);
      expect(line.x0).toBeGreaterThanOrEqual(20);
      expect(line.x1).toBeLessThanOrEqual(900);
      // Baselines are 45 px apart starting at 50: each line box holds its baseline.
      const baseline = 50 + index * FONT_SIZE * 1.5;
      expect(line.y0).toBeLessThan(baseline);
      expect(line.y1).toBeGreaterThan(baseline - 5);
      expect(line.fontSize).toBeGreaterThan(FONT_SIZE * 0.7);
      expect(line.fontSize).toBeLessThan(FONT_SIZE * 1.3);
    }
  });

  it('returns no lines for a blank page', async () => {
    const image = await drawPage({ width: 300, height: 100, blocks: [] });
    const engine = await getOcrEngine(agent);
    expect(await engine.recognize(image, resolveOcrLanguages(agent, undefined))).toEqual([]);
  });
});
