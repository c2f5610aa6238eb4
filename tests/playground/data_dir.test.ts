/**
 * `harness playground --data DIR` keeps its world: a second start on the same directory finds the
 * same users, timeline and messages instead of seating new ones.
 */
import assert from "node:assert/strict";
import { startPlayground } from "./support.ts";
import { studioClient } from "./studio_support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };

interface State {
  human: { handle: string };
  agent: { handle: string };
  timelines: { uuid: string; items: { body?: string }[] }[];
}

async function state(url: string): Promise<State> {
  return await (await fetch(`${url}api/state`)).json();
}

Deno.test({
  name: "playground: a second start on the same --data finds the same world",
  ...loose,
  async fn() {
    const data = await Deno.makeTempDir({ prefix: "playground-data-" });
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
    try {
      let first: State;
      {
        await using playground = await startPlayground(["--data", data], env);
        first = await state(playground.url);
        assert.equal(await playground.stop(), 0);
      }
      const seats = JSON.parse(await Deno.readTextFile(`${data}/playground.json`));
      assert.deepEqual(Object.keys(seats).sort(), ["agent", "human", "humans", "timeline"]);
      assert.doesNotMatch(JSON.stringify(seats), /bc_[a-z]{3}_/, "no token is kept");
      await using again = await startPlayground(["--data", data], env);
      const second = await state(again.url);
      assert.equal(second.human.handle, "ada");
      assert.equal(second.agent.handle, "vega");
      assert.deepEqual(second.timelines.map((t) => t.uuid), first.timelines.map((t) => t.uuid));
      assert.equal(second.timelines[0].items.length, 1, "the welcome is not posted twice");
      assert.equal(await again.stop(), 0);

      await Deno.writeTextFile(`${data}/playground.json`, "{}");
      await assert.rejects(
        startPlayground(["--data", data], env),
        /\(exit 1\): harness playground: \S+playground\.json is not a playground world .*remove it to seat a new one/,
      );
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "playground: a wake log that cannot be read stops the start naming it; one that cannot be written warns",
  ...loose,
  async fn() {
    const data = await Deno.makeTempDir({ prefix: "playground-data-" });
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
    try {
      await Deno.mkdir(`${data}/wakes.jsonl`);
      await assert.rejects(
        startPlayground(["--data", data], env),
        /\(exit 1\): harness playground: \S+wakes\.jsonl cannot be read .*move it aside/,
      );
      await Deno.remove(`${data}/wakes.jsonl`);
      await using playground = await startPlayground(["--data", data], env);
      // Taken away after the start: the next settled wake cannot be kept, and says so.
      await Deno.mkdir(`${data}/wakes.jsonl`);
      const studio = await studioClient(playground);
      await studio.ask("@vega hello");
      assert.match(playground.stderr(), /playground warning: could not keep wake \S+: /);
      assert.equal(await playground.stop(), 0);
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});
