/**
 * Reads a body stream up to a byte cap, so a huge (or endless) response costs at most the cap
 * in memory and time. One byte past the cap is read to tell "exactly the cap" from "more was
 * there", so the truncation note appears only when something was really cut.
 */

/** What was read, and whether the stream held more. */
export interface CappedBody {
  /** At most the cap's worth of bytes. */
  readonly bytes: Uint8Array;
  /** Whether the stream held more than the cap. */
  readonly truncated: boolean;
}

/** Reads at most `cap` bytes of `stream`, then cancels it. */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  cap: number,
): Promise<CappedBody> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total <= cap) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
  } finally {
    // Cancelling closes the connection underneath; a failure to cancel changes nothing read.
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(total, cap));
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= bytes.length) break;
    const take = chunk.subarray(0, bytes.length - offset);
    bytes.set(take, offset);
    offset += take.length;
  }
  return { bytes, truncated: total > cap };
}
