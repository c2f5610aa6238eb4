import assert from "node:assert/strict";
import type { ActiveTool } from "../../lib/config/tool_resolution.ts";
import type { PlatformContext } from "../../lib/tools/shared/platform_context.ts";
import { buildTools, loadOptionalFactories, ToolFactoryError } from "../../lib/runtime/tool_set.ts";

const entry = (tool: string, name = tool): ActiveTool => ({
  name,
  tool,
  options: {},
  stem: tool,
  note: null,
});
const bindings = { context: {} as PlatformContext, configHome: "/nonexistent" };

Deno.test("optional tools: nothing is loaded unless the resolution activated the shell", async () => {
  assert.deepEqual(await loadOptionalFactories([entry("messages"), entry("web_fetch")]), {});
});

Deno.test("optional tools: an activated shell is built from its lazily loaded module, renamed too", async () => {
  const active = [entry("messages"), entry("shell", "run_command")];
  const optional = await loadOptionalFactories(active);
  assert.deepEqual(Object.keys(optional), ["shell"]);
  const tools = buildTools(active, bindings, [], optional);
  assert.deepEqual(tools.map((t) => t.name), ["messages", "run_command"]);
  // Without the loaded factory the build fails loudly instead of dropping the tool.
  assert.throws(() => buildTools(active, bindings, []), ToolFactoryError);
});
