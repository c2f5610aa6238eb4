/**
 * Add your own tool.
 *
 * A tool is one small class: a name, a description, a JSON Schema for its parameters and a
 * `run` method. Register it on a Harness and the model can call it.
 *
 * The direct call needs nothing; the model turn uses the same environment as `quickstart.ts`
 * (AI_API_KEY, AI_MODEL, AI_BASE_URL, AI_SDK_SURFACE).
 *
 *   AI_API_KEY=sk-... deno run --allow-net --allow-env examples/custom_tool.ts
 */
import { Harness, type JsonSchema, OpenAIProvider, type OpenAISurface, Tool } from "../lib/mod.ts";

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

// Your tool runs like any other:
console.log(new Uppercase().run({ text: "hello" })); // -> HELLO

// ...and a model calls it through the Harness.
const env = (name: string) => Deno.env.get(name) || undefined;
const apiKey = env("AI_API_KEY");
if (!apiKey) {
  console.error(
    "Set AI_API_KEY (and AI_MODEL, AI_BASE_URL, AI_SDK_SURFACE) to let a model call it.",
  );
  Deno.exit(1);
}
const agent = new Harness(
  new OpenAIProvider({
    model: env("AI_MODEL") ?? "gpt-5.4-mini",
    apiKey,
    baseURL: env("AI_BASE_URL"),
    surface: (env("AI_SDK_SURFACE") ?? "responses") as OpenAISurface,
  }),
  { tools: [new Uppercase()] },
);
console.log(await agent.send('Use the uppercase tool on "hello world" and tell me the result.'));
