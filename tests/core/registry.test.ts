import assert from "node:assert/strict";
import { Policy, PolicyError } from "../../lib/core/policy.ts";
import { ToolRegistrationError, ToolRegistry } from "../../lib/core/registry.ts";
import { SHELL, Tool } from "../../lib/core/types/tool.ts";

class Named extends Tool {
  readonly description: string;
  constructor(readonly name: string, description = `the ${name} tool`) {
    super();
    this.description = description;
  }
  run(): string {
    return this.name;
  }
}

class DangerousTool extends Tool {
  readonly name = "shell";
  readonly description = "Run a command.";
  override readonly requires = new Set([SHELL]);
  run(): string {
    return "not reachable under the safe profile";
  }
}

Deno.test("registry: defaults to the locked policy and refuses a SHELL tool", () => {
  const registry = new ToolRegistry();
  assert.equal(registry.policy.profile, "locked");
  assert.throws(() => registry.register(new DangerousTool()), (error: unknown) => {
    assert.ok(error instanceof PolicyError);
    assert.equal(error.tool, "shell");
    assert.match(error.message, /refused by the safe-by-default policy: needs shell/);
    return true;
  });
  assert.equal(registry.has("shell"), false);
  assert.equal(registry.size, 0);
});

Deno.test("registry: the unlocked policy accepts a SHELL tool", () => {
  const registry = new ToolRegistry({ policy: Policy.unlocked() });
  registry.register(new DangerousTool());
  assert.equal(registry.has("shell"), true);
  assert.deepEqual(registry.names(), ["shell"]);
});

Deno.test("registry: empty, malformed and over-long names are refused", () => {
  const registry = new ToolRegistry();
  assert.throws(() => registry.register(new Named("")), ToolRegistrationError);
  assert.throws(() => registry.register(new Named("has space")), /not accepted by model providers/);
  assert.throws(() => registry.register(new Named("dot.ted")), ToolRegistrationError);
  assert.throws(() => registry.register(new Named("a".repeat(65))), ToolRegistrationError);
  registry.register(new Named("a".repeat(64)));
  registry.register(new Named("Mixed_case-9"));
  assert.equal(registry.size, 2);
});

Deno.test("registry: a duplicate name is refused and the first registration kept", () => {
  const registry = new ToolRegistry();
  const first = new Named("memory", "first");
  registry.register(first);
  assert.throws(
    () => registry.register(new Named("memory", "second")),
    /A tool named 'memory' is already registered\./,
  );
  assert.equal(registry.get("memory"), first);
});

Deno.test("registry: names and specs are sorted by name whatever the registration order", () => {
  const a = new ToolRegistry();
  const b = new ToolRegistry();
  for (const name of ["webhooks", "Zeta", "assets", "messages", "_x"]) a.register(new Named(name));
  for (const name of ["messages", "_x", "assets", "Zeta", "webhooks"]) b.register(new Named(name));
  assert.deepEqual(a.names(), ["Zeta", "_x", "assets", "messages", "webhooks"]);
  assert.deepEqual(a.specs().map((s) => s.name), a.names());
  // Byte-stable request prefix: same set, same bytes.
  assert.equal(JSON.stringify(a.specs()), JSON.stringify(b.specs()));
  assert.deepEqual(a.specs()[2], {
    name: "assets",
    description: "the assets tool",
    parameters: { type: "object", properties: {} },
  });
});

Deno.test("registry: get and has answer for unknown names", () => {
  const registry = new ToolRegistry().register(new Named("echo"));
  assert.equal(registry.get("nope"), undefined);
  assert.equal(registry.has("nope"), false);
  assert.equal(registry.get("echo")?.name, "echo");
});
