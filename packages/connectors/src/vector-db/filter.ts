/**
 * Milvus filter expressions with values from elsewhere (record ids are file paths, URLs, index/_id pairs
 * of a source: anything). The reference connector pasted the record id between quotes as is, so a quote in
 * it broke the delete, or widened it. A string literal here is double-quoted with backslash, double quote
 * and the line breaks/tab escaped; every other character stands for itself. Both Milvus (Go; its grammar
 * takes C escapes) and milvus-lite (which knows only \" \' \\ \n \r \t) read that literal back exactly.
 */
export function quoteFilterString(value: string): string {
  return `"${value.replace(/[\\"\n\r\t]/g, (char) => ESCAPES[char]!)}"`;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Rows of a record: `record_id == "…"`. */
export function recordFilter(recordField: string, recordId: string): string {
  return `${recordField} == ${quoteFilterString(recordId)}`;
}
