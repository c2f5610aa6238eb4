/**
 * Add your own provider.
 *
 * A provider is any object with a `chat(messages, tools?)` method resolving to an assistant
 * `Message`. There is nothing to inherit; implement that one method and you have a new brain.
 *
 *   deno run examples/custom_provider.ts
 */
import { Harness, Message, type Provider } from "../lib/mod.ts";

/** A provider in a few lines — the hackability promise, kept honest. */
class EchoProvider implements Provider {
  chat(messages: readonly Message[]): Promise<Message> {
    // A real provider translates the whole transcript to its wire format; the engine may append
    // its own turns (e.g. a live "Step N of M" note), so read the newest *user* message rather
    // than assuming it is last.
    const last = messages.findLast((message) => message.role === "user")?.content;
    return Promise.resolve(Message.assistant({ content: `You said: ${last}` }));
  }
}

const agent = new Harness(new EchoProvider());
console.log(await agent.send("Hello!")); // -> You said: Hello!
