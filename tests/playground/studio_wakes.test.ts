/**
 * The studio's wake routes on the real `harness playground` process, real wakes against the
 * sandbox's model: the summary the state carries (results, chain, cost), the details a panel
 * fetches (the records as on disk), the context view with the captured texts, the emulated
 * prompt cache and the prefix diff — and all of it again after a restart on the same --data,
 * rebuilt from the wake log and the records, a damaged log line skipped and named.
 */
import assert from "node:assert/strict";
import { startPlayground } from "./support.ts";
import { studioClient } from "./studio_support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" };

interface Part {
  name: string;
  chars: number;
  tokens: number;
  cached: string;
  text: string | null;
}
interface Request {
  parts: Part[];
  captured: boolean;
  cachedTokens: number | null;
  firstCall: Record<string, number> | null;
  diff: { kind: string; part: string | null; previousPart: string | null; offset: number | null };
}

Deno.test({
  name: "studio: wake details and the context view come from the records, and survive a restart",
  ...loose,
  async fn() {
    const data = await Deno.makeTempDir({ prefix: "studio-wakes-" });
    try {
      let spoken: string[];
      {
        await using playground = await startPlayground(["--data", data], env);
        const studio = await studioClient(playground);
        const first = await studio.ask("@vega what is a timeline?");
        const answered = first.wakes.find((w) => w.results.includes("spoke"))!;
        assert.equal(answered.outcome, "ok");
        assert.deepEqual(answered.chain, { verified: true, records: 1 });
        // The sandbox's model costs nothing, and says so; it is not an unknown cost.
        assert.deepEqual(answered.cost, { usd: 0, source: "sandbox" });

        const details = await studio.get<{
          records: { inbound: { text: string }; result: string; context: unknown }[];
          journal: unknown[];
          chain: { verified: boolean };
        }>(`api/wakes/${answered.id}`);
        assert.equal(details.status, 200);
        assert.match(details.body.records[0].inbound.text, /ada: @vega what is a timeline\?/);
        assert.equal(details.body.records[0].result, "spoke");
        assert.equal(details.body.journal.length, answered.journalLines);
        assert.ok(details.body.chain.verified);

        const context = await studio.get<Request[]>(`api/wakes/${answered.id}/context`);
        const [request] = context.body;
        assert.equal(request.captured, true);
        assert.deepEqual(
          request.parts.map((p) => p.name),
          ["tools", "charter", "transcript", "brief", "recall", "working_state", "new_turn"],
        );
        const part = (r: Request, name: string) => r.parts.find((p) => p.name === name)!;
        assert.match(part(request, "new_turn").text!, /ada: @vega what is a timeline\?/);
        assert.match(part(request, "charter").text!, /^<system>\n/);
        assert.ok(request.firstCall!.tokens_in > 1024);
        assert.equal(request.diff.kind, "first");

        // The second question: the sandbox's model reports the shared prefix as cached, and
        // the prefix diff finds the designed place to differ.
        const second = await studio.ask("@vega and what is a peer?");
        const next = second.wakes.filter((w) => w.results.includes("spoke")).at(-1)!;
        assert.ok(next.n > answered.n);
        const [again] = (await studio.get<Request[]>(`api/wakes/${next.id}/context`)).body;
        assert.ok(again.cachedTokens! > 1024, `cached ${again.cachedTokens}`);
        assert.equal(part(again, "tools").cached, "all");
        assert.equal(again.diff.kind, "tail");
        assert.equal(again.diff.part, "transcript");
        // The previous request's recalled memory (none on the first turn) or brief was its tail.
        assert.match(again.diff.previousPart!, /^(brief|recall)$/);
        // The automatic memory recalled the first exchange into the second turn.
        assert.match(part(again, "recall").text ?? "", /what is a timeline/);

        assert.equal((await studio.get("api/wakes/no-such-wake")).status, 404);
        spoken = second.wakes.map((w) => w.id);
        assert.equal(await playground.stop(), 0, playground.stderr());
      }

      // A torn last line in the wake log (a crash mid-append) costs that line only.
      await Deno.writeTextFile(`${data}/wakes.jsonl`, '{"id": "torn', { append: true });
      await using again = await startPlayground(["--data", data], env);
      const studio = await studioClient(again);
      const state = await studio.state();
      assert.deepEqual(state.wakes.map((w) => w.id), spoken);
      assert.ok(state.wakes.every((w) => w.finishedAt !== null));
      assert.match(
        again.stderr(),
        /playground warning: 1 line\(s\) of \S+wakes\.jsonl could not be read/,
      );
      const answered = state.wakes.find((w) => w.results.includes("spoke"))!;
      const details = await studio.get<{ records: unknown[] }>(`api/wakes/${answered.id}`);
      assert.equal(details.body.records.length, 1);
      const context = await studio.get<Request[]>(`api/wakes/${answered.id}/context`);
      assert.equal(context.body[0].captured, true);
      assert.equal(await again.stop(), 0, again.stderr());
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});
