/**
 * The prompt-cache routing key (`prompt_cache_key` on OpenAI's Responses surface): stable for
 * one agent on one timeline, so the vendor routes that conversation's requests to the cache that
 * holds its prefix. It is a digest of the two ids, so it carries nothing secret and names
 * nobody to the vendor.
 */
import { sha256Hex } from "../base/sha256.ts";

/** `bc-` and 32 hex digits of sha256(`<agent uuid>:<timeline uuid>`). */
export function promptCacheKey(agent: string, timeline: string): string {
  return `bc-${sha256Hex(`${agent.toLowerCase()}:${timeline.toLowerCase()}`).slice(0, 32)}`;
}
