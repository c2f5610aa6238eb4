/**
 * The page's writes and what it answers when one cannot be done: a wrong body type is 415, a
 * body that does not parse is 400, a file the platform refuses as too large is 413 with one
 * line, and a task that cannot be activated gets the platform's status and sentence. Real `harness playground` process.
 */
import assert from "node:assert/strict";
import { pageToken, startPlayground } from "./support.ts";

Deno.test({
  name: "playground: refused writes answer with a status and one line the page shows",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using playground = await startPlayground([], {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    });
    const token = await pageToken(playground.url);
    const state = await (await fetch(`${playground.url}api/state`)).json();
    const timeline: string = state.timelines[0].uuid;
    const headers = { origin: new URL(playground.url).origin, "playground-token": token };
    const send = async (path: string, body: BodyInit | null, type?: string) => {
      const reply = await fetch(`${playground.url}api/${path}`, {
        method: "POST",
        headers: type ? { ...headers, "content-type": type } : headers,
        body,
      });
      return { status: reply.status, error: (await reply.json()).error as string | undefined };
    };

    assert.deepEqual(await send("post", "{not json", "application/json"), {
      status: 400,
      error: "Send {timeline, body} with a non-empty body.",
    });
    const typed = await send("upload", JSON.stringify({ timeline }), "application/json");
    assert.deepEqual(typed, { status: 415, error: "Send the file as multipart/form-data." });

    // Under the page's own ceiling (the platform's limit plus the form), over the platform's.
    const form = new FormData();
    form.set("timeline", timeline);
    form.set("file", new File([new Uint8Array(25 * 1024 * 1024 + 16 * 1024)], "big.bin"));
    assert.deepEqual(await send("upload", form), {
      status: 413,
      error: "The platform refused the file: it is too large.",
    });

    const task = await send(
      "tasks",
      JSON.stringify({ timeline, instructions: "later", minutes: 60 }),
      "application/json",
    );
    assert.equal(task.status, 201);
    const after = await (await fetch(`${playground.url}api/state`)).json();
    const pending = after.timelines[0].items.find((i: { task?: unknown }) => i.task).uuid;
    assert.equal((await send(`tasks/${pending}/activate`, null)).status, 200);
    // Activating it again changes nothing and is not an error (one event per task, ever).
    assert.equal((await send(`tasks/${pending}/activate`, null)).status, 200);
    assert.deepEqual(await send(`tasks/${crypto.randomUUID()}/activate`, null), {
      status: 404,
      error: "The platform refused: The task was not found.",
    });
    assert.equal(await playground.stop(), 0, playground.stderr());
  },
});
