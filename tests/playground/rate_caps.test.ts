/**
 * `harness playground --no-rate-caps` lifts the router twin's rate caps, so a scripted session of
 * many questions on one timeline is answered in full: nine questions and the agent's nine replies
 * delivered back are 18 deliveries in well under a minute, past the fleet's cap of 15 per agent
 * and timeline. Real process, real wakes.
 */
import assert from "node:assert/strict";
import { startPlayground } from "./support.ts";
import { studioClient } from "./studio_support.ts";

Deno.test({
  name: "playground: --no-rate-caps answers a burst past the fleet's per-timeline cap",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using playground = await startPlayground(["--no-rate-caps"], {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    });
    const studio = await studioClient(playground);
    const started = Date.now();
    let state = await studio.state();
    for (let i = 1; i <= 9; i++) state = await studio.ask(`@vega question ${i}: what is ${i} + 1?`);
    const outcomes = state.wakes.map((w) => w.outcome);
    assert.ok(!outcomes.includes("rate-refused"), outcomes.join(", "));
    assert.equal(state.wakes.filter((w) => w.results.includes("spoke")).length, 9);
    // The caps would have applied: more than 15 deliveries inside their 60 s window.
    if (Date.now() - started < 60_000) assert.ok(state.wakes.length > 15, outcomes.join(", "));
    assert.doesNotMatch(playground.stderr(), /rate-refused/);
    assert.equal(await playground.stop(), 0, playground.stderr());
  },
});
