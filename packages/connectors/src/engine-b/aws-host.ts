/**
 * Region and service of a cloud-managed engine_b endpoint, read from its host name, for SigV4 signing:
 * - managed domains: `search-<name>-<id>.<region>.es.amazonaws.com` (also `vpc-…`, `-fips`, `.com.cn`)
 *   → service `es`;
 * - serverless collections: `<id>.<region>.aoss.amazonaws.com` (also `-fips`, `.com.cn`) → service `aoss`.
 * Anything else (localhost, a custom domain, a proxy) names no region: the user must give cloud_region
 * and cloud_service.
 */

export type CloudService = 'es' | 'aoss';

export interface CloudEndpoint {
  region: string;
  service: CloudService;
}

const REGION = '[a-z]{2}(?:-[a-z]+)+-\\d+';
const DOMAIN = new RegExp(`^(?:[a-z0-9-]+\\.)+?(${REGION})\\.es(?:-fips)?\\.amazonaws\\.com(?:\\.cn)?$`);
const SERVERLESS = new RegExp(`^[a-z0-9-]+\\.(${REGION})\\.aoss(?:-fips)?\\.amazonaws\\.com(?:\\.cn)?$`);

/** The host name of an entry written as a URL, host:port or host. */
function hostName(entry: string): string {
  const withoutScheme = entry.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const authority = withoutScheme.split(/[/?#]/)[0] ?? '';
  return authority.replace(/:\d+$/, '').toLowerCase();
}

export function detectCloudEndpoint(entry: string): CloudEndpoint | undefined {
  const host = hostName(entry);
  const serverless = SERVERLESS.exec(host);
  if (serverless) return { region: serverless[1]!, service: 'aoss' };
  const domain = DOMAIN.exec(host);
  if (domain) return { region: domain[1]!, service: 'es' };
  return undefined;
}
