import type { Entities } from '../types.js';
import { llmAnswerSchema } from './prompt.js';

/**
 * Check an LLM answer: JSON (a markdown code fence around it is tolerated), the schema of ./prompt.ts,
 * and relationships whose ends are listed entities. Returns the entities, or the reason the answer is
 * rejected (fed back to the model on the next attempt).
 */
export function validateLlmAnswer(
  text: string,
): { ok: true; entities: Entities } | { ok: false; reason: string } {
  const json = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { ok: false, reason: 'the answer is not valid JSON.' };
  }
  const result = llmAnswerSchema.safeParse(parsed);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`)
      .join('; ');
    return { ok: false, reason: `the JSON does not match the schema (${issues}).` };
  }
  const items = dedupeItems(
    result.data.items.map((item) => ({ entity: item.entity.trim(), type: item.type })),
  );
  const names = new Set(items.map((item) => item.entity));
  const unknown = result.data.relationships.find((r) => !names.has(r.from.trim()) || !names.has(r.to.trim()));
  if (unknown) {
    return {
      ok: false,
      reason: `relationship ${JSON.stringify(unknown)} names an entity that is not in "items".`,
    };
  }
  const relationships = result.data.relationships.map((r) => ({
    from: r.from.trim(),
    relationship: r.relationship.trim(),
    to: r.to.trim(),
  }));
  return { ok: true, entities: { items, relationships } };
}

function dedupeItems(items: Entities['items']): Entities['items'] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.type}\u0000${item.entity}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
