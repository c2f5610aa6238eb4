/**
 * Run by `lazy_sdk.test.ts` as its own process: imports the library, builds a model adapter
 * without calling it, and runs one EchoProvider turn. With a base URL argument it also makes
 * one real OpenAIProvider call there (the control that proves the SDK load is observable).
 */
import { EchoProvider, Harness, Message, OpenAIProvider } from "../../lib/mod.ts";

const baseURL = Deno.args[0];
const adapter = new OpenAIProvider({
  model: "mock-model",
  apiKey: "sk-test",
  baseURL,
  surface: "chat",
});

const agent = new Harness(new EchoProvider());
console.log(await agent.send("Hello!"));

if (baseURL) {
  const reply = await adapter.chat([Message.user("ping")]);
  console.log(reply.content);
}
