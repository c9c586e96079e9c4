import { invalidOption } from '@docsvc/partition';

/**
 * Host entries as users write them → the URLs the clients connect to. SPEC 2.3 allows `<host-name>` or
 * `<host-name>:<port-number>` (the port only for local instances); URLs with a scheme are accepted too.
 *
 * - An entry with a scheme (`https://search-x.es.amazonaws.com`) is taken as written.
 * - An entry without one gets `https://` when TLS is wanted (`use_ssl`, or a CA/fingerprint given), else
 *   `http://`; its port, when absent, is 443 with TLS and 9200 without (the engines' default HTTP port).
 * - Credentials written into a URL (`https://user:pass@host`) are refused: they would end up in logs;
 *   the username/password options exist for them.
 */
export interface HostParseOptions {
  /** Option name reported in errors (`hosts`). */
  field: string;
  /** Whether entries without a scheme use TLS. */
  tls: boolean;
}

export function parseHosts(entries: readonly string[], options: HostParseOptions): string[] {
  return entries.map((entry) => parseHost(entry, options));
}

export function parseHost(entry: string, { field, tls }: HostParseOptions): string {
  const trimmed = entry.trim();
  // Messages show the entry without any user:password written into it.
  const shown = trimmed.replace(/\/\/[^/@]*@/, '//***@');
  const invalid = (why: string): never => {
    throw invalidOption(field, `"${shown}" ${why}`);
  };
  if (trimmed === '') invalid('is empty');
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `${tls ? 'https' : 'http'}://${trimmed}`);
  } catch {
    return invalid('is not a host name, host:port or URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') invalid('must use http:// or https://');
  if (url.username !== '' || url.password !== '') {
    invalid('contains credentials; give them with username/password instead');
  }
  if (url.hostname === '') invalid('has no host name');
  if (!hasScheme && url.port === '') url.port = tls ? '443' : '9200';
  // URL keeps a lone "/" path; the clients add request paths to it, so a trailing slash is dropped.
  const text = url.toString();
  return url.pathname === '/' && url.search === '' ? text.replace(/\/$/, '') : text;
}
