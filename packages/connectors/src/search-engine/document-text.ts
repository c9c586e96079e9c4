/**
 * The text a source document becomes before partitioning: one paragraph per field, `<field>: <value>`,
 * paragraphs separated by a blank line, so the plain-text partitioner makes one element per field and
 * every element still says which field it came from (the reference joined bare values and lost the keys).
 *
 * - Order: the order of `fields` when given, else the stored document's own key order (engines keep the
 *   `_source` JSON as it was indexed), so the same document always gives the same text.
 * - Nested objects are written with dotted paths (`author.name: Ada`); a `fields` entry may name a nested
 *   field by its dotted path or a whole object.
 * - Arrays of plain values are one paragraph, items joined with ", " (`genres: drama, comedy`); arrays of
 *   objects give the paragraphs of each object in turn.
 * - null, missing and empty-string values are left out; numbers and booleans are written as JSON writes them.
 */
export function documentText(source: Record<string, unknown>, fields?: readonly string[]): string {
  const paragraphs: string[] = [];
  if (fields && fields.length > 0) {
    for (const field of fields) addField(paragraphs, field, lookup(source, field));
  } else {
    for (const [key, value] of Object.entries(source)) addField(paragraphs, key, value);
  }
  return paragraphs.join('\n\n');
}

function addField(paragraphs: string[], path: string, value: unknown): void {
  if (value === null || value === undefined || value === '') return;
  if (Array.isArray(value)) {
    const plain = value.filter((item) => item !== null && item !== undefined && item !== '');
    if (plain.every((item) => typeof item !== 'object')) {
      if (plain.length > 0) paragraphs.push(`${path}: ${plain.map(scalarText).join(', ')}`);
      return;
    }
    for (const item of plain) addField(paragraphs, path, item);
    return;
  }
  if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      addField(paragraphs, `${path}.${key}`, item);
    }
    return;
  }
  paragraphs.push(`${path}: ${scalarText(value)}`);
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A field by its path: a key with that exact name first (keys may contain dots), else nested objects. */
function lookup(source: Record<string, unknown>, path: string): unknown {
  if (path in source) return source[path];
  const dot = path.indexOf('.');
  if (dot < 0) return undefined;
  // Try every split point, so `a.b.c` finds {a: {"b.c": 1}} as well as {"a.b": {c: 1}}.
  for (let split = dot; split >= 0; split = path.indexOf('.', split + 1)) {
    const head = source[path.slice(0, split)];
    const rest = path.slice(split + 1);
    if (Array.isArray(head)) {
      // `cast.name` over [{name: "A"}, {name: "B"}] is ["A", "B"], as the engines read such paths.
      const found = head
        .filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object')
        .map((item) => lookup(item, rest))
        .filter((item) => item !== undefined);
      if (found.length > 0) return found.flat();
    } else if (head !== null && typeof head === 'object') {
      const found = lookup(head as Record<string, unknown>, rest);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
