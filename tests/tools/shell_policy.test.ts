/**
 * The first lock of invariant 7 (docs/invariants.md#7-safe-by-default-enforced-twice) and the root
 * backstop, in-process (nothing here spawns): the locked policy refuses the shell tool at
 * registration, the unlocked one admits it — unless the process runs as root, where the tool
 * refuses to load and to run.
 */
import assert from "node:assert/strict";
import { Policy, PolicyError } from "../../lib/core/policy.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { SHELL } from "../../lib/core/types/tool.ts";
import { ROOT_REFUSAL, ShellTool } from "../../lib/tools/shell/tool.ts";

const notRoot = () => 1000;

Deno.test("shell policy: the tool requires SHELL and has the contract's parameters", () => {
  const tool = new ShellTool({ euid: notRoot });
  assert.deepEqual([...tool.requires], [SHELL]);
  assert.equal(tool.name, "shell");
  const spec = tool.spec();
  assert.deepEqual(Object.keys(spec.parameters.properties as object), [
    "command",
    "timeout",
    "workdir",
  ]);
  assert.deepEqual(spec.parameters.required, ["command"]);
  assert.match(JSON.stringify(spec.parameters), /default 120, max 600/);
});

Deno.test("shell policy: Policy.locked() refuses it at registration", () => {
  const registry = new ToolRegistry({ policy: Policy.locked() });
  assert.throws(
    () => registry.register(new ShellTool({ euid: notRoot })),
    (error: unknown) =>
      error instanceof PolicyError &&
      error.message === "Tool 'shell' refused by the safe-by-default policy: needs shell; " +
          "not loaded.",
  );
  assert.equal(registry.has("shell"), false);
  // The default registry is the locked one.
  assert.throws(() => new ToolRegistry().register(new ShellTool({ euid: notRoot })), PolicyError);
});

Deno.test("shell policy: Policy.unlocked() admits it for a non-root user", () => {
  const registry = new ToolRegistry({ policy: Policy.unlocked() });
  registry.register(new ShellTool({ euid: notRoot }));
  assert.equal(registry.has("shell"), true);
});

Deno.test("shell policy: as root it refuses to load, even unlocked, and refuses to run", async () => {
  const root = new ShellTool({ euid: () => 0 });
  assert.equal(root.loadRefusal(), ROOT_REFUSAL);
  assert.throws(
    () => new ToolRegistry({ policy: Policy.unlocked() }).register(root),
    (error: unknown) =>
      error instanceof PolicyError &&
      error.message ===
        `Tool 'shell' refuses to load in this runtime: ${ROOT_REFUSAL}; not loaded.`,
  );
  // Constructed and called directly, bypassing the registry: still no shell.
  assert.equal(await root.run({ command: "echo hi" }), `Error: ${ROOT_REFUSAL}`);
});

Deno.test("shell policy: the real uid check reports what this machine is", () => {
  // This machine runs the tests as root; on a non-root box the same tool loads.
  const tool = new ShellTool();
  if (Deno.uid() === 0) {
    assert.equal(tool.loadRefusal(), ROOT_REFUSAL);
    assert.throws(
      () => new ToolRegistry({ policy: Policy.unlocked() }).register(tool),
      PolicyError,
    );
  } else {
    assert.equal(tool.loadRefusal(), undefined);
    new ToolRegistry({ policy: Policy.unlocked() }).register(tool);
  }
});

Deno.test("shell policy: an unreadable uid fails closed", () => {
  const blind = new ShellTool({
    euid: () => {
      throw new Deno.errors.NotCapable('Requires sys access to "uid"');
    },
  });
  assert.match(blind.loadRefusal() ?? "", /cannot confirm it is not running as root/);
  assert.equal(Policy.unlocked().allows(blind), false);
});

Deno.test("shell policy: a host without a uid concept is not root", () => {
  assert.equal(new ShellTool({ euid: () => null }).loadRefusal(), undefined);
});
