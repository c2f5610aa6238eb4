import assert from "node:assert/strict";
import { type LoadRefusing, Policy, PolicyError } from "../../lib/core/policy.ts";
import { SHELL, Tool } from "../../lib/core/types/tool.ts";

class Shell extends Tool {
  readonly name = "shell";
  readonly description = "Run a command.";
  override readonly requires = new Set([SHELL]);
  run(): string {
    return "unreachable under the safe profile";
  }
}

class Plain extends Tool {
  readonly name = "plain";
  readonly description = "Harmless.";
  run(): string {
    return "ok";
  }
}

class RootShy extends Plain implements LoadRefusing {
  loadRefusal(): string {
    return "running as root";
  }
}

Deno.test("policy: locked forbids exactly the shell capability", () => {
  const locked = Policy.locked();
  assert.equal(locked.profile, "locked");
  assert.deepEqual([...locked.forbidden], ["shell"]);
  assert.equal(locked.refusal(new Shell()), "refused by the safe-by-default policy: needs shell");
  assert.equal(locked.allows(new Shell()), false);
  assert.equal(locked.allows(new Plain()), true);
});

Deno.test("policy: unlocked forbids nothing", () => {
  const unlocked = Policy.unlocked();
  assert.equal(unlocked.profile, "unlocked");
  assert.equal(unlocked.forbidden.size, 0);
  assert.equal(unlocked.refusal(new Shell()), undefined);
});

Deno.test("policy: a tool's own load refusal is honoured under either profile", () => {
  for (const policy of [Policy.locked(), Policy.unlocked()]) {
    assert.equal(policy.refusal(new RootShy()), "refuses to load in this runtime: running as root");
  }
});

Deno.test("policy: PolicyError carries the audit sentence", () => {
  const error = new PolicyError("shell", "refused by the safe-by-default policy: needs shell");
  assert.equal(error.name, "PolicyError");
  assert.equal(error.tool, "shell");
  assert.equal(
    error.message,
    "Tool 'shell' refused by the safe-by-default policy: needs shell; not loaded.",
  );
  assert.ok(error instanceof Error);
});
