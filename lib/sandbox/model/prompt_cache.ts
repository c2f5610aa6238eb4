/**
 * The demo model's prompt cache, emulated (docs/sandbox.md#the-prompt-cache): an automatic prefix
 * cache shaped like OpenAI's, so `cached_tokens` is something a wake, the records and the
 * playground can be tested against offline. The model remembers the prompts of the last
 * {@link REMEMBERED} requests it served; a new request's cached tokens are the longest prefix it
 * shares with one of them, counted as the model counts tokens (4 characters each), nothing below
 * {@link MIN_CACHED} tokens and in steps of {@link CACHE_STEP} above it. The replies themselves
 * stay a pure function of the request; only this counter depends on what came before.
 */

/** How many recent prompts are remembered (oldest forgotten first). */
export const REMEMBERED = 64;
/** No prefix shorter than this many tokens is reported as cached. */
export const MIN_CACHED = 1024;
/** Cached tokens are reported in steps of this many tokens. */
export const CACHE_STEP = 128;

/** A per-sandbox prompt cache; see the module comment. */
export class PrefixPromptCache {
  readonly #prompts: string[] = [];

  /**
   * The cached tokens of `prompt` (its tools, then its instructions and messages, serialised in
   * the order the request carries them), then remembers it for the requests after it.
   */
  serve(prompt: string): number {
    let longest = 0;
    for (const seen of this.#prompts) longest = Math.max(longest, commonPrefix(seen, prompt));
    this.#prompts.push(prompt);
    if (this.#prompts.length > REMEMBERED) this.#prompts.shift();
    return cachedTokens(longest);
  }
}

/** Tokens for a shared prefix of `chars` characters, by the rule above. */
export function cachedTokens(chars: number): number {
  const tokens = Math.floor(chars / 4);
  return tokens < MIN_CACHED ? 0 : Math.floor(tokens / CACHE_STEP) * CACHE_STEP;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
