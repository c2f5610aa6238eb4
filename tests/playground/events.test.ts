/**
 * The page's event stream stays small over a long session: it opens with the whole snapshot,
 * then each update carries only the wakes that changed (and the timelines when they changed), so
 * a finished wake is not sent again while the next one runs. Real CLI process, real wakes against
 * the sandbox's deterministic model.
 */
import assert from "node:assert/strict";
import { pageToken, startPlayground } from "./support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };

interface Wake {
  id: string;
  finishedAt: string | null;
  trigger: { actor: string | null };
}
interface Event {
  event: string;
  data: {
    wakes: Wake[];
    timelines?: { uuid: string; items: { author: string | null; body?: string }[] }[];
  };
}

/** Collects the server-sent events of `body` as they arrive. */
function collect(body: ReadableStream<Uint8Array>) {
  const seen: Event[] = [];
  let lastAt = Date.now();
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const done = (async () => {
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: "", done: true }));
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(":")) continue; // keep-alive
        const event = block.match(/^event: (.*)$/m)?.[1] ?? "message";
        seen.push({ event, data: JSON.parse(block.match(/^data: (.*)$/m)?.[1] ?? "null") });
        lastAt = Date.now();
      }
    }
  })();
  return {
    seen,
    /** Resolves once `ready()` holds and then nothing arrived for a second. */
    async settled(ready: () => boolean): Promise<void> {
      while (!ready() || Date.now() - lastAt < 1000) await new Promise((r) => setTimeout(r, 50));
    },
    async cancel() {
      await reader.cancel();
      await done;
    },
  };
}

Deno.test({
  name: "playground: after the first snapshot, events carry only the wakes that changed",
  ...loose,
  async fn() {
    await using playground = await startPlayground([], { PATH: Deno.env.get("PATH") ?? "/bin" });
    const state = await (await fetch(`${playground.url}api/state`)).json();
    const timeline: string = state.timelines[0].uuid;
    const stream = collect((await fetch(`${playground.url}api/events`)).body!);
    const token = await pageToken(playground.url);
    // The latest state of every wake the stream has carried, by id.
    const latest = () => {
      const byId = new Map<string, Wake>();
      for (const event of stream.seen) for (const wake of event.data.wakes) byId.set(wake.id, wake);
      return [...byId.values()];
    };
    // The router twin delivers the agent's own reply back to it, so a question may cost a
    // follow-up wake: a round is over once every wake carried so far has finished.
    const allDone = (rounds: number) => () => {
      const wakes = latest();
      return wakes.filter((w) => w.trigger.actor === "ada").length === rounds &&
        wakes.every((w) => w.finishedAt !== null);
    };
    const post = async (body: string) => {
      const reply = await fetch(`${playground.url}api/post`, {
        method: "POST",
        headers: { "content-type": "application/json", "playground-token": token },
        body: JSON.stringify({ timeline, body }),
      });
      assert.equal(reply.status, 201);
      await reply.body?.cancel();
    };

    await stream.settled(() => stream.seen.length > 0);
    assert.equal(stream.seen[0].event, "state");
    assert.deepEqual(stream.seen[0].data.wakes, []);

    await post("@vega first question?");
    await stream.settled(allDone(1));
    const during1 = stream.seen.slice(1);
    const mark = stream.seen.length;
    assert.ok(during1.every((e) => e.event === "update"), "only the first event is the state");
    const ids1 = new Set(during1.flatMap((e) => e.data.wakes.map((w) => w.id)));
    const asked1 = latest().filter((w) => w.trigger.actor === "ada");
    assert.equal(asked1.length, 1, "one message from ada, one delivery");
    const replies = during1.flatMap((e) => e.data.timelines ?? []).flatMap((t) => t.items)
      .filter((i) => i.author === "vega");
    assert.ok(replies.length > 0, "the agent's reply arrives with the timelines");

    await post("@vega second question?");
    await stream.settled(allDone(2));
    const during2 = stream.seen.slice(mark);
    assert.ok(during2.length > 0 && during2.every((e) => e.event === "update"));
    const ids2 = new Set(during2.flatMap((e) => e.data.wakes.map((w) => w.id)));
    for (const id of ids1) {
      assert.ok(!ids2.has(id), "a finished wake of the first round is not sent again");
    }
    assert.ok(ids2.size >= 1);
    assert.ok(during2.some((e) => e.data.wakes.some((w) => w.finishedAt !== null)));

    // A page that connects now still gets everything at once.
    const late = collect((await fetch(`${playground.url}api/events`)).body!);
    await late.settled(() => late.seen.length > 0);
    assert.equal(late.seen[0].event, "state");
    assert.deepEqual(late.seen[0].data.wakes.map((w) => w.id), [...ids1, ...ids2]);
    await late.cancel();
    await stream.cancel();
    assert.equal(await playground.stop(), 0, playground.stderr());
  },
});
