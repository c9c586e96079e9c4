import { readFileSync } from 'node:fs';
import { invalidOption } from '@docsvc/partition';
import { Client, type ClientOptions } from '@elastic/elasticsearch';
import { parseHosts } from '../search-engine/hosts.js';
import type {
  EngineRequest,
  EngineRequestOptions,
  EngineResponse,
  EngineTransport,
} from '../search-engine/transport.js';
import type { EngineAConnectionConfig } from './config.js';

/**
 * The official @elastic/elasticsearch client (v8: the 9.x clients announce `compatible-with=9`, which 8.x
 * servers refuse) with every authentication of SPEC 5.4: an API key (encoded, or id + secret), basic
 * (with the username as given: the reference replaced it with `elastic`), a bearer token, a cloud id,
 * a CA file, a CA fingerprint (the reference ignored the last two).
 *
 * Exactly one way to authenticate may be configured (or none, for a cluster without security): with
 * options also coming from ENGINE_A_* variables, silently preferring one would hide which credentials
 * were really used.
 */

export type EngineAAuth = NonNullable<ClientOptions['auth']>;

/** The one configured authentication, or undefined for none. */
export function engineAAuth(config: EngineAConnectionConfig): EngineAAuth | undefined {
  if (config.api_key_id && !config.api_key)
    throw invalidOption('api_key_id', 'needs api_key (the key secret)');
  if ((config.username === undefined) !== (config.password === undefined)) {
    throw invalidOption(
      config.username ? 'password' : 'username',
      'basic authentication needs both username and password',
    );
  }
  const modes: { name: string; auth: EngineAAuth }[] = [];
  if (config.api_key) {
    modes.push({
      name: 'api_key',
      auth: {
        apiKey: config.api_key_id ? { id: config.api_key_id, api_key: config.api_key } : config.api_key,
      },
    });
  }
  if (config.bearer_auth) modes.push({ name: 'bearer_auth', auth: { bearer: config.bearer_auth } });
  if (config.username && config.password) {
    modes.push({ name: 'username/password', auth: { username: config.username, password: config.password } });
  }
  if (modes.length > 1) {
    throw invalidOption(
      'api_key',
      `several authentication methods are configured (${modes.map((m) => m.name).join(', ')}); keep one ` +
        '(options given through ENGINE_A_* environment variables count too)',
    );
  }
  return modes[0]?.auth;
}

/** The HTTPS URL of the cluster a cloud id names (`<name>:base64(<host>$<es id>$<kibana id>)`). */
export function cloudIdUrl(cloudId: string): string {
  const encoded = cloudId.slice(cloudId.indexOf(':') + 1);
  const [host, esId] = Buffer.from(encoded, 'base64').toString('utf8').split('$');
  if (!host || !esId || !/^[a-z0-9.-]+(:\d+)?$/i.test(host)) {
    throw invalidOption('cloud_id', 'is not a cloud id (<name>:<base64 of host$es-id$kibana-id>)');
  }
  const [name, port] = host.split(':');
  return `https://${esId}.${name}${port && port !== '443' ? `:${port}` : ''}`;
}

/** The node URLs (or the cloud id's URL) requests go to. */
export function engineAHosts(config: EngineAConnectionConfig): string[] {
  const hosts = config.hosts ?? [];
  if (config.cloud_id && hosts.length > 0) throw invalidOption('hosts', 'give hosts or cloud_id, not both');
  if (config.cloud_id) return [cloudIdUrl(config.cloud_id)];
  if (hosts.length === 0) throw invalidOption('hosts', 'give the cluster URL(s) in hosts, or a cloud_id');
  return parseHosts(hosts, {
    field: 'hosts',
    tls: Boolean(config.ca_certs || config.ssl_assert_fingerprint),
  });
}

function readPem(path: string, field: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw invalidOption(field, `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

export function engineAClientOptions(config: EngineAConnectionConfig): ClientOptions {
  const hosts = engineAHosts(config);
  const auth = engineAAuth(config);
  const options: ClientOptions = config.cloud_id ? { cloud: { id: config.cloud_id } } : { nodes: hosts };
  if (auth) options.auth = auth;
  const tls: NonNullable<ClientOptions['tls']> = {};
  if (config.ca_certs) tls.ca = readPem(config.ca_certs, 'ca_certs');
  if (config.ssl_assert_fingerprint) {
    if (hosts.some((host) => host.startsWith('http:'))) {
      throw invalidOption(
        'ssl_assert_fingerprint',
        'pins a TLS certificate but hosts use http://; use https:// hosts',
      );
    }
    const fingerprint = config.ssl_assert_fingerprint.trim();
    if (!/^([0-9a-f]{2}:?){32}$/i.test(fingerprint)) {
      throw invalidOption(
        'ssl_assert_fingerprint',
        'must be a SHA-256 fingerprint (64 hex digits, colons optional)',
      );
    }
    options.caFingerprint = fingerprint;
    // The pinned fingerprint authenticates the server; without a CA file the chain cannot be verified.
    if (!config.ca_certs) tls.rejectUnauthorized = false;
  }
  if (Object.keys(tls).length > 0) options.tls = tls;
  // Retries are ours (search-engine/retry.ts): one policy for both engines, with 429 included.
  options.maxRetries = 0;
  options.requestTimeout = 120_000;
  return options;
}

class ElasticsearchTransport implements EngineTransport {
  readonly connector = 'engine_a';

  constructor(
    private readonly client: Client,
    readonly hosts: readonly string[],
  ) {}

  async request<T>(request: EngineRequest, options: EngineRequestOptions = {}): Promise<EngineResponse<T>> {
    const result = await this.client.transport.request<T>(
      {
        method: request.method,
        path: request.path,
        ...(request.querystring ? { querystring: request.querystring } : {}),
        ...(request.body === undefined ? {} : { body: request.body as Record<string, unknown> }),
        ...(request.bulkBody === undefined ? {} : { bulkBody: request.bulkBody }),
      },
      {
        meta: true,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.ignore ? { ignore: options.ignore } : {}),
      },
    );
    return { statusCode: result.statusCode ?? 0, body: result.body };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** A transport for the shared search-engine code; throws ServiceError invalid_option on a bad config. */
export function connectEngineA(config: EngineAConnectionConfig): EngineTransport {
  const options = engineAClientOptions(config);
  return new ElasticsearchTransport(new Client(options), engineAHosts(config));
}
