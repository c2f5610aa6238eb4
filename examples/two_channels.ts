/**
 * One agent, many channels — shared memory, separate conversations.
 *
 * Each channel is a session keyed by a source string you choose. Every session runs against the
 * same provider, tools and charter, so they share durable memory while keeping their
 * transcripts apart. A past session's transcript stays readable from any other.
 *
 * Same environment as `quickstart.ts` (AI_API_KEY, AI_MODEL, AI_BASE_URL, AI_SDK_SURFACE,
 * HARNESS_HOME).
 *
 *   AI_API_KEY=sk-... deno run --allow-net --allow-env --allow-read --allow-write examples/two_channels.ts
 */
import { Harness, MemoryTool, OpenAIProvider, type OpenAISurface } from "../lib/mod.ts";

const env = (name: string) => Deno.env.get(name) || undefined;
const apiKey = env("AI_API_KEY");
if (!apiKey) {
  console.error("Set AI_API_KEY (and AI_MODEL, AI_BASE_URL, AI_SDK_SURFACE as needed).");
  Deno.exit(1);
}
const home = env("HARNESS_HOME") ?? await Deno.makeTempDir({ prefix: "harness-channels-" });

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

// Work happens on one channel...
await agent.send("I shipped the retry fix on PR #123.", { source: "github:pr-123" });

// ...and a peer asks about it on another. Different conversation, same memory:
console.log(await agent.send("What did you ship?", { source: "timeline:abc" }));

// A past session's transcript stays readable from anywhere — the agent answers as the same
// entity across channels, not a fresh self on each one:
for (const turn of await agent.transcript("github:pr-123")) {
  if (turn.role === "system") continue; // the engine's own step notes ("Step 1 of 24.")
  const calls = turn.toolCalls?.map((call) => call.name).join(", ");
  console.log(turn.role, turn.content ?? `(calls ${calls})`);
}
memory.close();
