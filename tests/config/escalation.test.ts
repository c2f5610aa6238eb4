/**
 * escalation.json (docs/configuration.md#escalationjson): absent or `"enabled": false` is off,
 * `on` narrows the triggers (all of them when omitted), and a bad file — escalation switched on
 * without NTFY_DM_TOKEN included — refuses naming the file, the key and the fix.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../../lib/config/errors.ts";
import {
  ESCALATION_FILE,
  ESCALATION_OFF,
  ESCALATION_REASONS,
  loadEscalation,
  resolveEscalation,
} from "../../lib/config/escalation.ts";
import { tempHome, write } from "./install_support.ts";

const TOKEN = "tk_ntfy_0123456789";

async function withFile(text: string | undefined, body: (home: string) => Promise<void>) {
  const { home, cleanup } = await tempHome();
  try {
    if (text !== undefined) await write(home, ESCALATION_FILE, text);
    await body(home);
  } finally {
    await cleanup();
  }
}

function refusal(value: unknown, token: string | undefined = TOKEN): string {
  try {
    resolveEscalation(value, token);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail(`${JSON.stringify(value)} was accepted`);
}

Deno.test("escalation.json: absent is off, even with a token", async () => {
  await withFile(undefined, async (home) => {
    assert.deepEqual(await loadEscalation(home, TOKEN), ESCALATION_OFF);
    assert.deepEqual(ESCALATION_OFF, { enabled: false, on: [] });
  });
});

Deno.test("escalation.json: enabled notifies on every trigger unless 'on' narrows them", async () => {
  await withFile('{"enabled": true}', async (home) => {
    assert.deepEqual(await loadEscalation(home, TOKEN), {
      enabled: true,
      on: [...ESCALATION_REASONS].sort(),
    });
  });
  assert.deepEqual(
    resolveEscalation({ enabled: true, on: ["gate_refused_twice", "billing_wall"] }, TOKEN),
    { enabled: true, on: ["billing_wall", "gate_refused_twice"] },
  );
  assert.deepEqual(resolveEscalation({ enabled: true, on: [] }, TOKEN), { enabled: true, on: [] });
  // Switched off, the token is not needed and `on` is not kept.
  assert.deepEqual(resolveEscalation({ enabled: false, on: ["billing_wall"] }, undefined), {
    enabled: false,
    on: [],
  });
});

Deno.test("escalation.json: a bad file refuses naming the file, the key and the fix", async () => {
  assert.match(
    refusal({ enabled: true }, ""),
    /^escalation\.json key 'enabled' is true but NTFY_DM_TOKEN is not set, so no notice could be sent\. Fix: set NTFY_DM_TOKEN/,
  );
  assert.match(refusal({ enabled: true }, "  "), /NTFY_DM_TOKEN is not set/);
  assert.match(
    refusal({ enabled: "yes" }),
    /^escalation\.json key 'enabled' must be true or false .*Fix: set it to true or false\.$/,
  );
  assert.match(
    refusal({ enabled: true, on: ["step_budget"] }),
    /^escalation\.json key 'on\.0' must be a list of "gate_refused_twice", "step_budget_exhausted_unanswered", "billing_wall", "budget_exhausted", "model_refused" .*Fix:/,
  );
  assert.match(
    refusal({ enabled: true, when: [] }),
    /^escalation\.json key 'when' is not an escalation setting\. Fix: use 'enabled' and 'on' only/,
  );
  assert.match(refusal({}), /^escalation\.json key 'enabled' must be true or false/);
  assert.match(refusal([true]), /^escalation\.json must be a JSON object .*Fix:/);
  await withFile("{enabled: true", async (home) => {
    await assert.rejects(
      loadEscalation(home, TOKEN),
      (error: Error) =>
        error instanceof ConfigError &&
        /escalation\.json is not valid JSON: .*Fix: correct the syntax/.test(error.message),
    );
  });
});
