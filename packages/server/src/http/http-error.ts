/** An HTTP answer that is not about the document: auth, limits, load. Rendered as `{"detail": ...}`. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}
