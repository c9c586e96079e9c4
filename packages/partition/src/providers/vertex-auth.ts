import { ServiceError } from '../errors.js';
import { type ProviderEnv, resolveSetting } from './credentials.js';
import { ProviderError } from './errors.js';

/**
 * Credentials and address of Vertex AI. The credential given as an option may be:
 * - a service-account key as JSON text (what unstructured-ingest's `--embedding-api-key` takes for
 *   vertexai), exchanged for an access token by google-auth-library;
 * - an OAuth access token (e.g. from `gcloud auth print-access-token`), sent as it is;
 * - absent: Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud, metadata server).
 */
export interface VertexSettings {
  credential?: string | undefined;
  project?: string | undefined;
  location?: string | undefined;
  /** Overrides https://{location}-aiplatform.googleapis.com (tests, private endpoints). */
  baseUrl?: string | undefined;
  env: ProviderEnv;
  /** Option names cited in errors. */
  optionNames: { project: string; credential: string };
}

export interface VertexAccess {
  /** `{base}/v1/projects/{project}/locations/{location}/publishers/google/models/{model}` */
  modelUrl(model: string): string;
  /** Authorization header value, refreshed by google-auth-library when it expires. */
  authorization(): Promise<string>;
  /** Secrets for redaction. */
  secrets: readonly (string | undefined)[];
}

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

export function createVertexAccess(settings: VertexSettings): VertexAccess {
  const credential = settings.credential?.trim();
  const serviceAccount = credential?.startsWith('{') ? parseServiceAccount(credential, settings) : undefined;
  const project =
    resolveSetting(settings.project, settings.env, ['GOOGLE_CLOUD_PROJECT', 'GCLOUD_PROJECT']) ??
    serviceAccount?.project_id;
  if (!project) {
    const message = `vertexai needs a Google Cloud project: set ${settings.optionNames.project} or GOOGLE_CLOUD_PROJECT.`;
    throw new ServiceError('invalid_option', message, {
      details: [{ field: settings.optionNames.project, message }],
    });
  }
  const location =
    resolveSetting(settings.location, settings.env, ['GOOGLE_CLOUD_LOCATION']) ?? 'us-central1';
  const host = location === 'global' ? 'aiplatform.googleapis.com' : `${location}-aiplatform.googleapis.com`;
  const base = (settings.baseUrl ?? `https://${host}`).replace(/\/+$/, '');
  const secrets: (string | undefined)[] = [
    credential,
    serviceAccount?.private_key,
    serviceAccount?.private_key_id,
  ];

  let tokenSource: (() => Promise<string>) | undefined;
  if (credential && !serviceAccount) {
    tokenSource = async () => credential;
  } else {
    // Loaded on first use: most users of this package never call Vertex.
    let auth: Promise<{ getAccessToken(): Promise<string | null | undefined> }> | undefined;
    tokenSource = async () => {
      auth ??= import('google-auth-library').then(
        ({ GoogleAuth }) =>
          new GoogleAuth({ scopes: SCOPE, ...(serviceAccount ? { credentials: serviceAccount } : {}) }),
      );
      try {
        const token = await (await auth).getAccessToken();
        if (!token) throw new Error('no access token was returned');
        secrets.push(token);
        return token;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ProviderError('vertexai', `could not obtain Google credentials: ${reason}`, {
          retryable: false,
          secrets,
        });
      }
    };
  }
  return {
    modelUrl: (model) =>
      `${base}/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/publishers/google/models/${encodeURIComponent(model)}`,
    authorization: async () => `Bearer ${await tokenSource()}`,
    secrets,
  };
}

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
}

function parseServiceAccount(text: string, settings: VertexSettings): ServiceAccountKey {
  try {
    const parsed = JSON.parse(text) as Partial<ServiceAccountKey>;
    if (typeof parsed.client_email === 'string' && typeof parsed.private_key === 'string') {
      return parsed as ServiceAccountKey;
    }
  } catch {
    // fall through to the error below; never echo the text, it is a key
  }
  const message = `${settings.optionNames.credential} looks like JSON but is not a service-account key (client_email and private_key are required).`;
  throw new ServiceError('invalid_option', message, {
    details: [{ field: settings.optionNames.credential, message }],
  });
}
