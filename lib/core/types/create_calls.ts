/**
 * Which tool calls are platform creates (docs/operating.md#the-delivery-guarantee): the only calls
 * a recovery may re-issue, under a deterministic Idempotency-Key, from the arguments recorded on
 * disk. The persistence cap needs the same answer so it never shortens arguments a recovery may
 * still replay.
 */
import type { ToolCall } from "./message.ts";

/** `(tool, action)` pairs that create on the platform, and the key kind each mints. */
export const CREATE_CALLS: ReadonlyMap<string, string> = new Map([
  ["messages/create", "message"],
  ["assets/create", "asset"],
  ["tasks/create", "task"],
  ["webhook_endpoints/create", "webhook_endpoint"],
]);

/**
 * The create kind `call` issues (`message`, `asset`, `task`, `webhook_endpoint`), or `undefined`
 * when it is not a create. Read from the recorded name and `action` only, so a transcript reloaded
 * after a crash answers exactly as the live call did.
 */
export function createKind(call: Pick<ToolCall, "name" | "arguments">): string | undefined {
  const action = Object.hasOwn(call.arguments, "action") ? call.arguments.action : undefined;
  if (typeof action !== "string") return undefined;
  return CREATE_CALLS.get(`${call.name}/${action}`);
}
