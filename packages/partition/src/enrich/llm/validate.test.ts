import { describe, expect, it } from 'vitest';
import { answerJsonSchema } from './prompt.js';
import { validateLlmAnswer } from './validate.js';

describe('validateLlmAnswer', () => {
  const good = {
    items: [
      { entity: 'Acme', type: 'ORGANIZATION' },
      { entity: 'Jane Doe', type: 'PERSON' },
      { entity: 'Acme', type: 'ORGANIZATION' },
    ],
    relationships: [{ from: 'Jane Doe', relationship: 'works for', to: 'Acme' }],
  };

  it('accepts the schema, tolerates a code fence, and removes duplicate items', () => {
    const result = validateLlmAnswer(`\`\`\`json\n${JSON.stringify(good)}\n\`\`\``);
    expect(result).toEqual({
      ok: true,
      entities: {
        items: [
          { entity: 'Acme', type: 'ORGANIZATION' },
          { entity: 'Jane Doe', type: 'PERSON' },
        ],
        relationships: [{ from: 'Jane Doe', relationship: 'works for', to: 'Acme' }],
      },
    });
  });

  it('rejects non-JSON, wrong shapes, unknown types, extra keys and dangling relationships', () => {
    const reasons = [
      'Sure! Here are the entities: Acme',
      JSON.stringify({ items: [] }),
      JSON.stringify({ items: [{ entity: 'Acme', type: 'COMPANY' }], relationships: [] }),
      JSON.stringify({ items: [{ entity: '', type: 'PERSON' }], relationships: [] }),
      JSON.stringify({ ...good, extra: true }),
      JSON.stringify({
        items: good.items,
        relationships: [{ from: 'Bob', relationship: 'knows', to: 'Acme' }],
      }),
    ].map((text) => {
      const result = validateLlmAnswer(text);
      expect(result.ok).toBe(false);
      return result.ok ? '' : result.reason;
    });
    expect(reasons[0]).toMatch(/not valid JSON/);
    expect(reasons[1]).toMatch(/relationships/);
    expect(reasons[2]).toMatch(/type/);
    expect(reasons[5]).toMatch(/"Bob"|not in "items"/);
  });

  it('sends a strict-mode schema: every property required, no extra properties, no length keywords', () => {
    const schema = answerJsonSchema();
    expect(schema.required).toEqual(['items', 'relationships']);
    expect(schema.additionalProperties).toBe(false);
    expect(JSON.stringify(schema)).not.toMatch(/minLength|\$schema/);
  });
});
