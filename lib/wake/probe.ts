/**
 * The NOC synthetic probe (docs/operating.md#the-noc-synthetic-probe): a signed `BCNOC1 <nonce> <hmac>` marker anywhere in
 * an item's text is answered model-free with `BCNOC1-ACK <nonce>`. The HMAC makes the ack a proof
 * that this box holds the secret; a forged or stale-secret marker is just an ordinary item.
 */

/** Finds every candidate marker; word-bounded so `XBCNOC1` or a 65-hex tail never match. */
const MARKER = /(?<![A-Za-z0-9_])BCNOC1 ([A-Za-z0-9_-]{1,128}) ([0-9a-f]{64})(?![A-Za-z0-9_])/g;

const encoder = new TextEncoder();

/** The ack body the wake posts for a verified probe. */
export function probeAck(nonce: string): string {
  return `BCNOC1-ACK ${nonce}`;
}

/** Lowercase hex HMAC-SHA256 of `message` under `secret`. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A signed marker for `nonce` (what the NOC sends; tests use it too). */
export async function signProbe(secret: string, nonce: string): Promise<string> {
  return `BCNOC1 ${nonce} ${await hmacHex(secret, `BCNOC1 ${nonce}`)}`;
}

/**
 * The nonce of the first verified marker in `text`, or `undefined` (no secret, no marker, or no
 * marker whose HMAC verifies). The compare is constant-time so the check leaks no prefix.
 */
export async function verifiedProbe(
  text: string | null | undefined,
  secret: string | undefined,
): Promise<string | undefined> {
  if (!secret || !text) return undefined;
  for (const match of text.matchAll(MARKER)) {
    const [, nonce, mac] = match;
    const expected = await hmacHex(secret, `BCNOC1 ${nonce}`);
    if (constantTimeEqual(expected, mac)) return nonce;
  }
  return undefined;
}

/** Compares two strings without an early exit on the first differing character. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
