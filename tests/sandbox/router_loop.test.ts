/**
 * Two agents that always answer each other, through the sandbox and the router twin: every
 * post is delivered to both (the router is actor-agnostic), so the wakes multiply until the
 * rate caps refuse them — the router's backstop against a loop. Each wake is a real process;
 * the launcher posts the agent's answer with its own token first.
 */
import { strict as assert } from "node:assert";
import { WakeRouter } from "../../lib/sandbox/mod.ts";
import { withSandbox } from "./helpers.ts";

Deno.test("two agents answering each other are stopped by the (agent, timeline) cap", async () => {
  await withSandbox(async (h) => {
    const ada = await h.user("ada");
    const vega = await h.user("vega", "ai");
    const orion = await h.user("orion", "ai");
    await h.mutual(ada, vega);
    await h.mutual(ada, orion);
    await h.mutual(vega, orion);
    const tl = await h.timeline(ada);
    await ada.api.post(`/timelines/${tl}/participations`, { user_id: vega.uuid });
    await ada.api.post(`/timelines/${tl}/participations`, { user_id: orion.uuid });
    const lines: string[] = [];
    let answers = 0;
    const router = new WakeRouter({
      baseUrl: h.base,
      directory: h.sandbox.directory,
      log: (line) => lines.push(line),
      rules: {
        coalesce: false,
        rateCaps: { agent: 100, timeline: 4, windowSeconds: 60, cooldownSeconds: 60 },
      },
      launcher: async (launch) => {
        const answer = await fetch(`${h.base}/timelines/${tl}/messages`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${launch.token}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({ message: { body: `@${launch.agent.handle} again` } }),
        });
        await answer.body?.cancel();
        answers++;
        const { code } = await new Deno.Command("true").output();
        return { code };
      },
    });
    const unsubscribe = h.sandbox.onEvent((event) => router.dispatch(event));
    try {
      await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "start" } });
      await router.idle();
      const woke = (handle: string) =>
        router.history.filter((r) => r.handle === handle && r.outcome === "woke").length;
      assert.equal(woke("vega"), 4);
      assert.equal(woke("orion"), 4);
      assert.equal(answers, 8);
      const refused = router.history.filter((r) => r.outcome === "rate-refused");
      assert.ok(refused.length > 0);
      assert.ok(refused.every((r) => r.detail!.startsWith("scope=timeline")));
      assert.equal(lines.filter((l) => / state=tripped /.test(l)).length, 2, "one trip per agent");
      // Nothing more is queued: the loop is over, and the timeline holds 1 + 8 messages.
      const listed = await ada.api.get(`/messages?timeline=${tl}`);
      assert.equal(listed.body.messages.length, 9);
    } finally {
      unsubscribe();
      await router.close();
    }
  });
});
