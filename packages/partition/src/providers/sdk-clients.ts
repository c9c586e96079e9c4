import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type OpenAI from 'openai';
import { ServiceError } from '../errors.js';
import { type ProviderEnv, requireSetting, resolveSetting } from './credentials.js';

/**
 * Builders for the official SDK clients, shared by embeddings, entity extraction and the VLM client.
 * Every client gets: the key and address we resolved (never the SDK's own environment lookup, so the
 * caller's `env` choice holds), our time limit, and no SDK retries — ./retry.ts retries every provider
 * with one policy.
 *
 * Settings are checked at once (a missing key is an `invalid_option` before any work starts), but the
 * SDK itself is imported on first use: each takes hundreds of milliseconds to load, and most users of
 * this package never call most providers.
 */

/** A client built on first use and then reused. */
export type LazyClient<T> = () => Promise<T>;

function lazy<T>(build: () => Promise<T>): LazyClient<T> {
  let client: Promise<T> | undefined;
  return () => {
    client ??= build();
    return client;
  };
}

export interface OpenAiClientSettings {
  /** Provider name for messages and defaults: openai, azure-openai, togetherai, openai-compatible... */
  provider: string;
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  azureEndpoint?: string | undefined;
  azureApiVersion?: string | undefined;
  azureDeployment?: string | undefined;
  /** Option names to cite in "missing setting" errors. */
  optionNames: { apiKey: string; baseUrl: string; azureEndpoint?: string };
  timeoutMs: number;
  env: ProviderEnv;
  fetch?: typeof fetch | undefined;
}

/** Defaults per OpenAI-style provider: where the key may come from and where the API lives. */
const OPENAI_STYLE: Record<string, { keyEnv: string[]; baseUrlEnv: string[]; defaultBaseUrl?: string }> = {
  openai: {
    keyEnv: ['OPENAI_API_KEY'],
    baseUrlEnv: ['OPENAI_BASE_URL'],
    defaultBaseUrl: 'https://api.openai.com/v1',
  },
  togetherai: { keyEnv: ['TOGETHER_API_KEY'], baseUrlEnv: [], defaultBaseUrl: 'https://api.together.xyz/v1' },
  'openai-compatible': { keyEnv: [], baseUrlEnv: [] },
  vllm: { keyEnv: ['VLLM_API_KEY'], baseUrlEnv: [], defaultBaseUrl: 'http://localhost:8000/v1' },
  ollama: { keyEnv: [], baseUrlEnv: [], defaultBaseUrl: 'http://localhost:11434/v1' },
};

/** The key sent when a self-hosted server needs none; the SDK insists on some value. */
const NO_KEY = 'no-key';

export interface BuiltOpenAiClient {
  client: LazyClient<OpenAI>;
  /** The key actually used, for redaction. */
  apiKey: string | undefined;
}

export function createOpenAiClient(settings: OpenAiClientSettings): BuiltOpenAiClient {
  const common = {
    timeout: settings.timeoutMs,
    maxRetries: 0,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  };
  if (settings.provider === 'azure-openai') {
    const what = { provider: 'azure-openai' };
    const apiKey = requireSetting(
      { ...what, option: settings.optionNames.apiKey, description: 'an API key' },
      settings.apiKey,
      settings.env,
      ['AZURE_OPENAI_API_KEY'],
    );
    const endpoint = requireSetting(
      {
        ...what,
        option: settings.optionNames.azureEndpoint ?? settings.optionNames.baseUrl,
        description: 'the resource endpoint (https://<resource>.openai.azure.com)',
      },
      settings.azureEndpoint ?? settings.baseUrl,
      settings.env,
      ['AZURE_OPENAI_ENDPOINT'],
    );
    const apiVersion =
      resolveSetting(settings.azureApiVersion, settings.env, ['OPENAI_API_VERSION']) ??
      AZURE_DEFAULT_API_VERSION;
    const client = lazy(async () => {
      const { AzureOpenAI } = await import('openai');
      return new AzureOpenAI({
        ...common,
        apiKey,
        endpoint,
        apiVersion,
        ...(settings.azureDeployment ? { deployment: settings.azureDeployment } : {}),
      });
    });
    return { client, apiKey };
  }
  const style = OPENAI_STYLE[settings.provider] ?? OPENAI_STYLE['openai-compatible']!;
  const baseURL = resolveSetting(settings.baseUrl, settings.env, style.baseUrlEnv) ?? style.defaultBaseUrl;
  if (!baseURL) {
    const message = `${settings.provider} needs the address of the server: set ${settings.optionNames.baseUrl} (e.g. http://localhost:8000/v1).`;
    throw new ServiceError('invalid_option', message, {
      details: [{ field: settings.optionNames.baseUrl, message }],
    });
  }
  const needsKey = settings.provider === 'openai' || settings.provider === 'togetherai';
  const apiKey = needsKey
    ? requireSetting(
        { provider: settings.provider, option: settings.optionNames.apiKey, description: 'an API key' },
        settings.apiKey,
        settings.env,
        style.keyEnv,
      )
    : resolveSetting(settings.apiKey, settings.env, style.keyEnv);
  const client = lazy(async () => {
    const { default: OpenAIClient } = await import('openai');
    return new OpenAIClient({ ...common, apiKey: apiKey ?? NO_KEY, baseURL });
  });
  return { client, apiKey };
}

/** The Azure OpenAI data-plane version used when none is given (GA, supports embeddings and vision). */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

export interface BedrockClientSettings {
  region?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  sessionToken?: string | undefined;
  /** Custom endpoint (a VPC endpoint, or a local test server). */
  endpoint?: string | undefined;
  timeoutMs: number;
  env: ProviderEnv;
}

/**
 * A Bedrock runtime client. Keys given as options win; without them the AWS SDK's default chain applies
 * (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN, AWS_PROFILE, instance roles...), which is
 * what AWS users expect.
 */
export function createBedrockClient(settings: BedrockClientSettings): LazyClient<BedrockRuntimeClient> {
  const region =
    resolveSetting(settings.region, settings.env, ['AWS_REGION', 'AWS_DEFAULT_REGION']) ?? 'us-west-2';
  if (Boolean(settings.accessKeyId) !== Boolean(settings.secretAccessKey)) {
    const message =
      'bedrock needs both an AWS access key id and a secret access key, or neither (default chain).';
    throw new ServiceError('invalid_option', message);
  }
  return lazy(async () => {
    const { BedrockRuntimeClient } = await import('@aws-sdk/client-bedrock-runtime');
    return new BedrockRuntimeClient({
      region,
      maxAttempts: 1,
      requestHandler: { requestTimeout: settings.timeoutMs, connectionTimeout: settings.timeoutMs },
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? {
            credentials: {
              accessKeyId: settings.accessKeyId,
              secretAccessKey: settings.secretAccessKey,
              ...(settings.sessionToken ? { sessionToken: settings.sessionToken } : {}),
            },
          }
        : {}),
    });
  });
}
