import { invalidOption } from '@docsvc/partition';

/**
 * The index naming rules engine_a and engine_b share, checked before any request so that a typo is a
 * `config` error naming the option instead of a 400 from the server: lowercase, none of
 * `\ / * ? " < > | , #`, spaces or colons, not starting with `-`, `_` or `+`, not `.` or `..`, at most
 * 255 bytes.
 */
export function checkIndexName(name: string, field = 'index_name'): string {
  const problem = indexNameProblem(name);
  if (problem) {
    throw invalidOption(field, `"${name}" ${problem}`);
  }
  return name;
}

function indexNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name !== name.toLowerCase()) return 'must be lowercase';
  if (/[\\/*?"<>|,#:\s]/.test(name)) return 'must not contain \\ / * ? " < > | , # : or spaces';
  if (/^[-_+]/.test(name)) return 'must not start with -, _ or +';
  if (name === '.' || name === '..') return 'is not an index name';
  if (Buffer.byteLength(name) > 255) return 'is longer than 255 bytes';
  return undefined;
}
