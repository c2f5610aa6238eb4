/**
 * Delivery: the single call site of the platform's message create in the whole runtime (an
 * architecture test keeps it that way). It accepts only a `CheckedMessage`, so nothing reaches
 * the platform that the checks did not pass.
 */
import type { Message, PlatformClient } from "../platform/mod.ts";
import { CheckedMessage } from "./checked_message.ts";

/** Posts `message`; with `idempotencyKey`, a replay returns the original record. */
export function deliver(
  client: PlatformClient,
  message: CheckedMessage,
  idempotencyKey?: string,
): Promise<Message> {
  // The type already says this; the check is for JavaScript callers and casts.
  if (!CheckedMessage.is(message)) {
    return Promise.reject(new TypeError("deliver() takes only a screened CheckedMessage"));
  }
  return client.messages.create(message.timeline, message.cleared, { idempotencyKey });
}
