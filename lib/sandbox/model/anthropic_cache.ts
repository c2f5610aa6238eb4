/**
 * Anthropic's prompt cache as the demo model keeps it: the request rendered in the order the
 * Messages API renders it (tools → system → messages), cut at each `cache_control` breakpoint,
 * and an entry per cut prefix that a later request with the same prefix reads. It lets the
 * offline demo (and the tests) show cache writes and reads as a real endpoint reports them; the
 * sizes are the demo model's estimates, not a tokenizer's.
 */
import { digest, estimateTokens, isRecord, records } from "./wire_common.ts";

/** How long an entry lives after it was written or last read (Anthropic's ephemeral cache). */
export const CACHE_TTL_MS = 5 * 60 * 1000;

/** A request cut at its breakpoints. */
export interface RenderedPrefixes {
  /** The rendered text up to and including each breakpoint's block, in render order. */
  readonly prefixes: readonly string[];
  /** The whole rendered request. */
  readonly whole: string;
}

/**
 * Renders `body` block by block in the API's order — each tool, each system block, then each
 * message's blocks behind its role — with the `cache_control` markers themselves left out (they
 * mark a place, they are not content), and returns the text up to each marked block.
 */
export function renderPrefixes(body: Record<string, unknown>): RenderedPrefixes {
  const parts: string[] = [];
  const prefixes: string[] = [];
  let text = "";
  const add = (part: string, marked: boolean) => {
    parts.push(part);
    text += part;
    if (marked) prefixes.push(text);
  };
  for (const tool of records(body.tools)) add(`tool:${unmarked(tool)}\n`, marked(tool));
  const system = typeof body.system === "string"
    ? [{ type: "text", text: body.system }]
    : records(body.system);
  for (const block of system) add(`system:${unmarked(block)}\n`, marked(block));
  for (const message of records(body.messages)) {
    const role = String(message.role);
    const content = typeof message.content === "string"
      ? [{ type: "text", text: message.content }]
      : records(message.content);
    for (const block of content) add(`${role}:${unmarked(block)}\n`, marked(block));
  }
  return { prefixes, whole: text };
}

function marked(block: Record<string, unknown>): boolean {
  return isRecord(block.cache_control);
}

function unmarked(block: Record<string, unknown>): string {
  const { cache_control: _marker, ...rest } = block;
  return JSON.stringify(rest);
}

/** What one request read from and wrote to the cache, in (estimated) tokens. */
export interface CacheUse {
  readonly input: number;
  readonly read: number;
  readonly written: number;
}

/** One sandbox's prompt cache: prefix digests and when each expires. */
export class DemoPromptCache {
  readonly #entries = new Map<string, number>();
  readonly #now: () => number;

  /** `now` is for tests; the sandbox uses the clock. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Serves one request: the longest breakpoint prefix already cached is read, the rest up to
   * the last breakpoint is written, and everything after it is plain input. Every breakpoint's
   * entry then lives for {@link CACHE_TTL_MS} from now.
   */
  use(body: Record<string, unknown>): CacheUse {
    const now = this.#now();
    for (const [key, expires] of this.#entries) if (expires <= now) this.#entries.delete(key);
    const { prefixes, whole } = renderPrefixes(body);
    const keys = prefixes.map((prefix) => digest(prefix));
    let hit = "";
    keys.forEach((key, index) => {
      if (this.#entries.has(key)) hit = prefixes[index];
    });
    const last = prefixes.at(-1) ?? "";
    for (const key of keys) this.#entries.set(key, now + CACHE_TTL_MS);
    const total = estimateTokens(whole.length);
    const read = hit ? estimateTokens(hit.length) : 0;
    const written = last.length > hit.length ? estimateTokens(last.length) - read : 0;
    return { input: Math.max(1, total - read - written), read, written };
  }
}
