import { readFileSync } from 'node:fs';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { invalidOption } from '@docsvc/partition';
import { Client, type ClientOptions } from '@opensearch-project/opensearch';
import { parseHosts } from '../search-engine/hosts.js';
import type {
  EngineRequest,
  EngineRequestOptions,
  EngineResponse,
  EngineTransport,
} from '../search-engine/transport.js';
import { type CloudEndpoint, detectCloudEndpoint } from './aws-host.js';
import type { EngineBConnectionConfig } from './config.js';
import { sigV4Connection } from './sigv4.js';

/**
 * The official @opensearch-project/opensearch client with the authentications of SPEC 5.5: basic (master
 * user), IAM credentials (+ session token) signed with SigV4, or a client certificate (one PEM holding
 * certificate and key, or two files), over TLS verified against a CA bundle. One method at a time:
 * with options also coming from ENGINE_B_* variables, silently preferring one would hide which
 * credentials were used. (A client certificate may accompany basic or IAM authentication: it is a TLS
 * matter, some deployments ask for both.)
 */

function readFile(path: string, field: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw invalidOption(field, `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/** Certificates and private key of client_cert (+ client_key): one combined PEM file, or two files. */
export function readClientCertificate(
  certPath: string,
  keyPath: string | undefined,
): { cert: string; key: string } {
  const blocks = (text: string) =>
    [...text.matchAll(PEM_BLOCK)].map((match) => ({ type: match[1]!, pem: match[0] }));
  const certBlocks = blocks(readFile(certPath, 'client_cert'));
  const keyBlocks = keyPath ? blocks(readFile(keyPath, 'client_key')) : certBlocks;
  const cert = certBlocks.filter((block) => block.type.endsWith('CERTIFICATE')).map((block) => block.pem);
  const key = keyBlocks.find((block) => block.type.endsWith('PRIVATE KEY'));
  if (cert.length === 0) throw invalidOption('client_cert', `${certPath} holds no PEM certificate`);
  if (!key) {
    throw invalidOption(
      keyPath ? 'client_key' : 'client_cert',
      keyPath
        ? `${keyPath} holds no PEM private key`
        : `${certPath} holds no private key; give it in the same file or with client_key`,
    );
  }
  if (/ENCRYPTED/.test(key.type) || /Proc-Type: 4,ENCRYPTED/.test(key.pem)) {
    throw invalidOption('client_key', 'the private key is encrypted; give an unencrypted key');
  }
  return { cert: `${cert.join('\n')}\n`, key: `${key.pem}\n` };
}

/** The signing region and service: the overrides, else what the host says. */
export function signingEndpoint(config: EngineBConnectionConfig, hosts: readonly string[]): CloudEndpoint {
  const detected = hosts[0] === undefined ? undefined : detectCloudEndpoint(hosts[0]);
  const region = config.cloud_region ?? detected?.region;
  const service = config.cloud_service ?? detected?.service;
  if (!region || !service) {
    throw invalidOption(
      config.cloud_region ? 'cloud_service' : 'cloud_region',
      `cannot tell the region and service to sign for from host ${hosts[0] ?? '(none)'}; set cloud_region and cloud_service (es or aoss)`,
    );
  }
  return { region, service };
}

export function engineBHosts(config: EngineBConnectionConfig): string[] {
  if (config.hosts.length === 0) throw invalidOption('hosts', 'give at least one host');
  const hosts = parseHosts(config.hosts, { field: 'hosts', tls: config.use_ssl });
  if (config.use_ssl && hosts.some((host) => host.startsWith('http:'))) {
    throw invalidOption('hosts', 'use_ssl is on but a host is written with http://');
  }
  return hosts;
}

export interface EngineBClientSetup {
  options: ClientOptions;
  hosts: string[];
  /** Which authentication is used, for messages: basic, iam, client_certificate, none. */
  auth: 'basic' | 'iam' | 'client_certificate' | 'none';
  /** Things to tell the user (verification off...). */
  warnings: string[];
}

export function engineBClientSetup(config: EngineBConnectionConfig): EngineBClientSetup {
  const hosts = engineBHosts(config);
  const basic = config.username !== undefined || config.password !== undefined;
  const iam =
    config.cloud_access_key_id !== undefined ||
    config.cloud_secret_access_key !== undefined ||
    config.cloud_session_token !== undefined;
  if (basic && (!config.username || !config.password)) {
    throw invalidOption(
      config.username ? 'password' : 'username',
      'basic authentication needs both username and password',
    );
  }
  if (iam && (!config.cloud_access_key_id || !config.cloud_secret_access_key)) {
    throw invalidOption(
      config.cloud_access_key_id ? 'cloud_secret_access_key' : 'cloud_access_key_id',
      'IAM authentication needs cloud_access_key_id and cloud_secret_access_key (and cloud_session_token for temporary credentials)',
    );
  }
  if (basic && iam) {
    throw invalidOption(
      'username',
      'both basic (username/password) and IAM (cloud_*) credentials are configured; keep one ' +
        '(options given through ENGINE_B_* environment variables count too)',
    );
  }
  if (config.client_key && !config.client_cert) throw invalidOption('client_key', 'needs client_cert');

  const ssl: TlsOptions = { rejectUnauthorized: config.verify_certs };
  if (config.ca_certs) ssl.ca = readFile(config.ca_certs, 'ca_certs');
  if (config.client_cert) Object.assign(ssl, readClientCertificate(config.client_cert, config.client_key));

  const options: ClientOptions = {
    nodes: hosts,
    ssl,
    // Retries are ours (search-engine/retry.ts): one policy for both engines, with 429 included.
    maxRetries: 0,
    requestTimeout: 120_000,
  };
  let auth: EngineBClientSetup['auth'] = config.client_cert ? 'client_certificate' : 'none';
  if (basic) {
    options.auth = { username: config.username!, password: config.password! };
    auth = 'basic';
  } else if (iam) {
    const { region, service } = signingEndpoint(config, hosts);
    options.Connection = sigV4Connection({
      region,
      service,
      credentials: {
        accessKeyId: config.cloud_access_key_id!,
        secretAccessKey: config.cloud_secret_access_key!,
        sessionToken: config.cloud_session_token,
      },
    });
    auth = 'iam';
  }
  const warnings: string[] = [];
  if (!config.verify_certs && hosts.some((host) => host.startsWith('https:'))) {
    warnings.push(
      "certificate verification is off (verify_certs=false): the server's identity is not checked",
    );
  }
  return { options, hosts, auth, warnings };
}

class OpenSearchTransport implements EngineTransport {
  readonly connector = 'engine_b';

  constructor(
    private readonly client: Client,
    readonly hosts: readonly string[],
  ) {}

  async request<T>(request: EngineRequest, options: EngineRequestOptions = {}): Promise<EngineResponse<T>> {
    options.signal?.throwIfAborted();
    const pending = this.client.transport.request(
      {
        method: request.method,
        path: request.path,
        ...(request.querystring ? { querystring: request.querystring } : {}),
        ...(request.body === undefined ? {} : { body: request.body as Record<string, unknown> }),
        ...(request.bulkBody === undefined ? {} : { bulkBody: request.bulkBody }),
      },
      options.ignore ? { ignore: options.ignore } : {},
    );
    const abort = () => pending.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      const result = await pending;
      return { statusCode: result.statusCode ?? 0, body: result.body as T };
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

const warned = new Set<string>();

/** A transport for the shared search-engine code; throws ServiceError invalid_option on a bad config. */
export function connectEngineB(config: EngineBConnectionConfig): EngineTransport {
  const setup = engineBClientSetup(config);
  if (config.ssl_show_warn) {
    for (const warning of setup.warnings) {
      // Once per process and message: a run creates a source and a destination.
      if (warned.has(warning)) continue;
      warned.add(warning);
      process.emitWarning(`engine_b: ${warning}`, { code: 'DOCSVC_ENGINE_B_TLS' });
    }
  }
  return new OpenSearchTransport(new Client(setup.options), setup.hosts);
}
