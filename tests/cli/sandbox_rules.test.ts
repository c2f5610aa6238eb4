import { strict as assert } from "node:assert";
import { routerFlagsUsage, routerRulesFromFlags } from "../../lib/cli/sandbox_rules.ts";
import { UsageError } from "../../lib/cli/command.ts";
import { FLEET_RATE_CAPS, FLEET_RULES, routerRules } from "../../lib/sandbox/router_rules.ts";
import { runCli } from "../support/run_cli.ts";

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

Deno.test("harness sandbox --help states the router twin's defaults as the rules define them", async () => {
  const help = await runCli(["sandbox", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  const { agent, timeline, windowSeconds } = FLEET_RATE_CAPS;
  for (
    const line of [
      `--no-retry           one attempt per delivery (default: ${FLEET_RULES.attempts}, after ` +
      `${FLEET_RULES.backoffMs / 1000} s`,
      `--no-rate-caps       no ${agent}-per-${windowSeconds}-s agent cap nor ` +
      `${timeline}-per-${windowSeconds}-s timeline cap`,
      `--lanes N            wakes running at once across agents (default ${FLEET_RULES.lanes})`,
    ]
  ) {
    assert.ok(help.stdout.includes(line), `${line}\n---\n${help.stdout}`);
  }
});

Deno.test("the router twin's usage follows its rules: every retry's doubling wait, caps, lanes", () => {
  const rules = (attempts: number) =>
    routerFlagsUsage({
      ...FLEET_RULES,
      attempts,
      backoffMs: 250,
      lanes: 3,
      rateCaps: { agent: 7, timeline: 5, windowSeconds: 30, cooldownSeconds: 30 },
    });
  const retry = (text: string) => text.match(/one attempt per delivery \((.*)\)/)?.[1];
  assert.equal(retry(rules(1)), "default: 1");
  assert.equal(retry(rules(2)), "default: 2, after 0.25 s");
  assert.equal(retry(rules(4)), "default: 4, after 0.25 s, 0.5 s and 1 s");
  assert.match(rules(4), /no 7-per-30-s agent cap nor 5-per-30-s timeline cap/);
  assert.match(rules(4), /wakes running at once across agents \(default 3\)/);
});
