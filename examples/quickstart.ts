/**
 * Quickstart — talk to an agent.
 *
 * A Harness wires a provider (the brain), a system prompt and tools together. `send` runs one
 * turn — think, optionally call tools, reply — and keeps the conversation.
 *
 * Point it at any OpenAI-compatible endpoint through the environment:
 *
 *   AI_API_KEY   the key (required)
 *   AI_MODEL     the model id (default `gpt-5.4-mini`)
 *   AI_BASE_URL  the endpoint (default: OpenAI's)
 *   AI_SDK_SURFACE  `responses` (default) or `chat` for an endpoint without the Responses API
 *   HARNESS_HOME the directory for memory.db (default: a fresh temporary directory)
 *
 *   AI_API_KEY=sk-... deno run --allow-net --allow-env --allow-read --allow-write examples/quickstart.ts
 */
import { Harness, MemoryTool, OpenAIProvider, type OpenAISurface } from "../lib/mod.ts";

const env = (name: string) => Deno.env.get(name) || undefined;
const apiKey = env("AI_API_KEY");
if (!apiKey) {
  console.error("Set AI_API_KEY (and AI_MODEL, AI_BASE_URL, AI_SDK_SURFACE as needed).");
  Deno.exit(1);
}
const home = env("HARNESS_HOME") ?? await Deno.makeTempDir({ prefix: "harness-quickstart-" });

const memory = new MemoryTool({ home });
const agent = new Harness(
  new OpenAIProvider({
    model: env("AI_MODEL") ?? "gpt-5.4-mini",
    apiKey,
    baseURL: env("AI_BASE_URL"),
    surface: (env("AI_SDK_SURFACE") ?? "responses") as OpenAISurface,
  }),
  {
    systemPrompt: "You are Nova, a helpful peer on BaseCradle.",
    tools: [memory],
  },
);

console.log(await agent.send("Remember that my favorite language is Ruby."));
console.log(await agent.send("What is my favorite language?"));
memory.close();
