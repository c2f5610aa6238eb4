import { strict as assert } from "node:assert";
import { routerRulesFromFlags } from "../../lib/cli/sandbox_rules.ts";
import { UsageError } from "../../lib/cli/command.ts";
import { routerRules } from "../../lib/sandbox/router_rules.ts";

Deno.test("harness sandbox flags: each switches one router-twin rule off", () => {
  assert.deepEqual(routerRulesFromFlags({}, true), {});
  const all = routerRulesFromFlags({
    "no-own-posts": true,
    "no-dedup": true,
    "no-retry": true,
    "no-rate-caps": true,
    "no-coalesce": true,
    "no-wake-lock": true,
    lanes: "2",
  }, true);
  assert.deepEqual(all, {
    actorAgnostic: false,
    dedupSeconds: 0,
    attempts: 1,
    rateCaps: null,
    coalesce: false,
    wakeLockDir: null,
    lanes: 2,
  });
  assert.deepEqual(routerRulesFromFlags({ "wake-lock-dir": "/run/locks" }, true), {
    wakeLockDir: "/run/locks",
  });
  // The result is a valid rule set.
  assert.equal(routerRules(all).attempts, 1);
});

Deno.test("harness sandbox flags: contradictions and flags without --wake-command are usage errors", () => {
  assert.throws(
    () => routerRulesFromFlags({ "no-dedup": true }, false),
    (error) => error instanceof UsageError && /--no-dedup needs --wake-command/.test(error.message),
  );
  assert.throws(
    () => routerRulesFromFlags({ "no-wake-lock": true, "wake-lock-dir": "/x" }, true),
    /contradict/,
  );
  assert.throws(
    () => routerRulesFromFlags({ lanes: "0" }, true),
    /--lanes must be a whole number from 1 to 64/,
  );
  assert.throws(
    () => routerRulesFromFlags({ "wake-lock-dir": " " }, true),
    /--wake-lock-dir is empty/,
  );
});

Deno.test("router rules: bad values are refused with what is wrong", () => {
  assert.throws(
    () => routerRules({ attempts: 0 }),
    /attempts must be a whole number of at least 1, got 0/,
  );
  assert.throws(() => routerRules({ lanes: 1.5 }), /lanes must be a whole number/);
  assert.throws(() => routerRules({ dedupSeconds: -1 }), /must not be negative/);
  assert.throws(
    () =>
      routerRules({ rateCaps: { agent: 0, timeline: 1, windowSeconds: 60, cooldownSeconds: 1 } }),
    /rate caps need/,
  );
});
