import { z } from 'zod';

/**
 * The LLM engine's contract: the prompt (documented word for word in docs/enrichment.md) and the answer
 * schema. The zod schema is the single definition: it validates answers, and its JSON-schema form is
 * sent as the structured-output schema (OpenAI json_schema, Anthropic/Bedrock tool input schema).
 */
export const LLM_ENTITY_TYPES = [
  'PERSON',
  'ORGANIZATION',
  'LOCATION',
  'DATE',
  'TIME',
  'DURATION',
  'MONEY',
  'PERCENT',
  'PRODUCT',
  'EVENT',
  'FACILITY',
  'LAW',
  'EMAIL',
  'URL',
  'OTHER',
] as const;

const nonEmpty = z.string().trim().min(1);

export const llmAnswerSchema = z.strictObject({
  items: z.array(z.strictObject({ entity: nonEmpty, type: z.enum(LLM_ENTITY_TYPES) })),
  relationships: z.array(z.strictObject({ from: nonEmpty, relationship: nonEmpty, to: nonEmpty })),
});
export type LlmAnswer = z.infer<typeof llmAnswerSchema>;

/**
 * JSON schema of the answer, in the subset strict structured-output modes accept: no `$schema`, and no
 * string-length keywords (OpenAI's strict mode has refused them). Validation with zod still checks them.
 */
export function answerJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(llmAnswerSchema) as Record<string, unknown>;
  delete schema.$schema;
  return stripKeywords(schema, ['minLength', 'maxLength']) as Record<string, unknown>;
}

function stripKeywords(value: unknown, keywords: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => stripKeywords(item, keywords));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !keywords.includes(key))
      .map(([key, item]) => [key, stripKeywords(item, keywords)]),
  );
}

export const SYSTEM_PROMPT = `You extract named entities and the relationships between them from a passage of a document.

Entities: every specific, named thing the passage mentions, with one type from this list:
${LLM_ENTITY_TYPES.join(', ')}.
Write each entity exactly as it appears in the passage. List an entity once, even if it appears several times.
Do not list pronouns, generic nouns ("the company") or numbers that are not money, percentages, dates or times.

Relationships: facts the passage states between two of the entities you listed, as
{"from": <entity>, "relationship": <short lower-case verb phrase, e.g. "works for", "located in", "acquired">, "to": <entity>}.
"from" and "to" must be written exactly as in your entity list. Only relationships the passage states; no guesses.

Answer with one JSON object and nothing else:
{"items": [{"entity": "...", "type": "..."}], "relationships": [{"from": "...", "relationship": "...", "to": "..."}]}
Use empty lists when there is nothing to extract.`;

export function userPrompt(text: string, previousError?: string): string {
  const passage = `Passage:\n"""\n${text}\n"""`;
  if (!previousError) return passage;
  return `${passage}\n\nYour previous answer was rejected: ${previousError}\nAnswer again with a JSON object that follows the instructions exactly.`;
}
