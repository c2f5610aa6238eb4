/**
 * Request-body ceilings for the local servers (the sandbox platform and the playground's page):
 * a declared `Content-Length` over the limit is refused before a byte of the body is read, and a
 * body without one (chunked) is counted as it streams and cut off at the limit, so no request
 * can make a server hold more than its route's limit in memory.
 */

/** A request body over its route's limit (declared or counted); a server answers 413. */
export class BodyTooLargeError extends Error {
  /** Names the error class in messages and logs. */
  override name = "BodyTooLargeError";

  /**
   * Names the limit so the 413 answer can say it.
   *
   * @param limit the route's ceiling in bytes.
   */
  constructor(readonly limit: number) {
    super(`The request body exceeds ${limit} bytes.`);
  }
}

/**
 * The request with its body bounded to `limit` bytes: a declared `Content-Length` over the
 * limit throws at once; otherwise the returned request's body errors with
 * {@link BodyTooLargeError} as soon as more than `limit` bytes have streamed in, whichever way a
 * handler reads it (`json()`, `formData()`, a reader). A request without a body is returned as is.
 * @throws {BodyTooLargeError} when the declared length exceeds the limit.
 */
export function limitBody(req: Request, limit: number): Request {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    throw new BodyTooLargeError(limit);
  }
  if (req.body === null || req.method === "GET" || req.method === "HEAD") return req;
  let seen = 0;
  const counted = req.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(new BodyTooLargeError(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(req.url, { method: req.method, headers: req.headers, body: counted });
}
