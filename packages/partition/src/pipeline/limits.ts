/**
 * Resource limits that protect a process from hostile or huge inputs. They are set by whoever runs the
 * service (server configuration, library caller), not per request.
 */
export interface PartitionLimits {
  /** Largest size any decompressed content may reach: gzip input, zip entries (docx/xlsx/...), e-mail parts. */
  maxDecompressedBytes: number;
  /** Largest image, in pixels, that is decoded (images and rendered pages). */
  maxImagePixels: number;
  /** Time limit for one document, in milliseconds (0 = none). */
  documentTimeoutMs: number;
  /** Time limit for one page of a PDF or image, in milliseconds (0 = none). */
  pageTimeoutMs: number;
}

export const DEFAULT_LIMITS: PartitionLimits = {
  maxDecompressedBytes: 512 * 1024 * 1024,
  maxImagePixels: 180_000_000,
  documentTimeoutMs: 0,
  pageTimeoutMs: 0,
};

export function resolveLimits(overrides: Partial<PartitionLimits> | undefined): PartitionLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}
