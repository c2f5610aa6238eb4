/**
 * EchoProvider: the smallest possible provider, and the template for your own. It never
 * calls a network; it answers every turn with the newest user text.
 */
import { Message } from "../core/types/message.ts";
import type { Provider } from "../core/types/provider.ts";

/** Replies `You said: <the newest user message>`; handy for wiring tests and demos. */
export class EchoProvider implements Provider {
  /** Label for log lines. */
  readonly provider = "echo";
  /** Label for log lines. */
  readonly model = "echo";

  /** Reads the newest USER turn (the newest turn may be a tool result). */
  chat(messages: readonly Message[]): Promise<Message> {
    const lastUser = messages.findLast((message) => message.role === "user");
    return Promise.resolve(Message.assistant({ content: `You said: ${lastUser?.content ?? ""}` }));
  }
}
