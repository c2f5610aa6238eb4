/** Vector arithmetic for the hybrid recall rank, apart from the SDK that makes the vectors. */

/** Cosine similarity of two unit vectors (0 when their lengths differ). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}
