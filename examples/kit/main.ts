/**
 * A project of its own that uses the harness as a kit: it imports only through the kit's export
 * map (`@basecradle/harness`, `@basecradle/harness/journal`, `@basecradle/harness/memory`),
 * never a path into `lib/`. See docs/library.md for the deno.json this needs.
 *
 * One turn: the model calls this project's own `uppercase` tool, then answers; the journal shows
 * the fleet's `llm` and `tool` lines.
 *
 *   cd examples/kit && deno install
 *   AI_API_KEY=sk-... deno run --allow-net --allow-env --allow-read --allow-write main.ts
 */
import {
  Harness,
  type JsonSchema,
  OpenAIProvider,
  type OpenAISurface,
  Tool,
} from "@basecradle/harness";
import { MemoryJournal } from "@basecradle/harness/journal";
import { MemoryTool } from "@basecradle/harness/memory";

class Uppercase extends Tool {
  readonly name = "uppercase";
  readonly description = "Return the given text in uppercase.";
  override readonly parameters: JsonSchema = {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  };

  run(args: { text: string }): string {
    return args.text.toUpperCase();
  }
}

const env = (name: string) => Deno.env.get(name) || undefined;
const apiKey = env("AI_API_KEY");
if (!apiKey) {
  console.error("Set AI_API_KEY (and AI_MODEL, AI_BASE_URL, AI_SDK_SURFACE as needed).");
  Deno.exit(1);
}
const home = env("HARNESS_HOME") ?? await Deno.makeTempDir({ prefix: "harness-kit-" });
const journal = new MemoryJournal({ minLevel: "INFO" });
const memory = new MemoryTool({ home });
const agent = new Harness(
  new OpenAIProvider({
    model: env("AI_MODEL") ?? "gpt-5.4-mini",
    apiKey,
    baseURL: env("AI_BASE_URL"),
    surface: (env("AI_SDK_SURFACE") ?? "responses") as OpenAISurface,
  }),
  { tools: [new Uppercase(), memory], journal },
);
console.log(await agent.send('Use the uppercase tool on "hello kit" and tell me the result.'));
for (const line of journal.lines) console.log(line);
memory.close();
