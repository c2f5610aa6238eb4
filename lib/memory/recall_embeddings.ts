/**
 * Optional embeddings for automatic recall (docs/memory.md#optional-hybrid-ranking-with-embeddings):
 * when the operator names a model (`HARNESS_MEMORY_EMBEDDINGS_MODEL`), each stored chunk and each
 * recall query is embedded through the openai SDK's `embeddings.create`, and vector similarity is
 * fused with the lexical rank. Loaded lazily, only when a model is configured; the SDK with it.
 * Every request goes through the fetch path (docs/security.md#one-fetch-path), so the host
 * rules decide where the embeddings, and the key that rides with them, may go.
 */
import { outboundFetch } from "../net/outbound.ts";
import { refusalIn } from "../net/refusal.ts";

/** Where the embeddings come from. */
export interface EmbedderOptions {
  /** The embeddings model, e.g. `text-embedding-3-small`. */
  readonly model: string;
  /** The API key (`AI_API_KEY`). */
  readonly apiKey?: string;
  /** The endpoint (`HARNESS_MEMORY_EMBEDDINGS_URL`, else `AI_BASE_URL`, else the SDK's default). */
  readonly baseURL?: string;
}

/** Text in, one unit-length vector per text out. */
export interface Embedder {
  /** The model the vectors come from (vectors of another model are never compared). */
  readonly model: string;
  /** One vector per text, in order, each scaled to length 1. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** An embedder over the openai SDK. The client is made on first use. */
export function openaiEmbedder(options: EmbedderOptions): Embedder {
  let client: Promise<{ embeddings: { create: (body: unknown) => Promise<unknown> } }> | undefined;
  const connect = async () => {
    const { default: OpenAI } = await import("openai");
    return new OpenAI({
      apiKey: options.apiKey ?? "",
      baseURL: options.baseURL,
      maxRetries: 1,
      timeout: 20_000,
      fetch: outboundFetch("embeddings"),
    }) as unknown as { embeddings: { create: (body: unknown) => Promise<unknown> } };
  };
  return {
    model: options.model,
    async embed(texts) {
      if (!texts.length) return [];
      const sdk = await (client ??= connect());
      let reply: { data?: { index?: number; embedding?: unknown }[] };
      try {
        reply = await sdk.embeddings.create({
          model: options.model,
          input: [...texts],
          encoding_format: "float",
        }) as typeof reply;
      } catch (error) {
        // A refusal reads as the SDK's bare "Connection error."; say what was refused instead.
        throw refusalIn(error) ?? error;
      }
      const rows = [...(reply.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      if (rows.length !== texts.length) {
        throw new Error(
          `the embeddings reply held ${rows.length} vectors for ${texts.length} texts`,
        );
      }
      return rows.map((row) => unit(row.embedding));
    },
  };
}

/** `value` as a unit-length Float32Array; anything but a non-empty number array is an error. */
function unit(value: unknown): Float32Array {
  if (!Array.isArray(value) || !value.length || !value.every((x) => typeof x === "number")) {
    throw new Error("the embeddings reply held something that is not a vector of numbers");
  }
  const vector = Float32Array.from(value as number[]);
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) { for (let i = 0; i < vector.length; i++) vector[i] /= norm; }
  return vector;
}
