/**
 * One typed error for every route. A `code` is stable (clients and tests match on it); `status` is the
 * HTTP status the API answers with; `details` carries field-level information (never secrets).
 */
export const ERROR_STATUS = {
  /** The bytes are not a type we can partition (or cannot be detected). */
  unsupported_file_type: 400,
  /** A strategy that cannot apply to this input (e.g. `fast` on an image). */
  strategy_not_available: 400,
  /** `hi_res_model_name` names no known model and no readable model file. */
  unknown_model: 400,
  /** A format needs an external converter (e.g. LibreOffice for .doc) that is not installed. */
  converter_unavailable: 400,
  /** An option value is invalid; `details` lists the fields. */
  invalid_option: 422,
  /** The document claims a type but its bytes are broken (truncated zip, bad xref, malformed XML...). */
  corrupt_document: 422,
  /** The document is encrypted or password-protected. */
  encrypted_document: 422,
  /** The text could not be decoded with the given or detected encoding. */
  invalid_encoding: 422,
  /** A size limit was exceeded (decompressed size, pixel count, page count). */
  limit_exceeded: 413,
  /** A per-page or per-document time limit ran out. */
  timeout: 422,
  /** A remote provider (VLM, embedding, LLM) failed or answered badly. */
  provider_error: 502,
  /** A bug or an unexpected failure; the message says what, without internals. */
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldIssue {
  /** Option or field name, e.g. `max_characters`. */
  field: string;
  message: string;
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: FieldIssue[] | undefined;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: FieldIssue[] } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
  }

  toJSON(): { code: ErrorCode; message: string; details?: FieldIssue[] } {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

/** The `invalid_option` error for one option, with the field in its details (API 422, CLI exit 2). */
export function invalidOption(field: string, message: string): ServiceError {
  return new ServiceError('invalid_option', `Invalid options: ${field}: ${message}`, {
    details: [{ field, message }],
  });
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}

/** Wrap anything thrown into a ServiceError, keeping typed ones as they are. */
export function toServiceError(error: unknown, fallback: ErrorCode = 'internal'): ServiceError {
  if (error instanceof ServiceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ServiceError(fallback, message, { cause: error });
}
