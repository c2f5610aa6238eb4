/**
 * The playground's page server bounds every request body before reading it: a 200 MB declared
 * body is answered 413 at once, a 200 MB chunked one is cut off at the route's ceiling (small
 * JSON for posts, tasks and the studio's writes, the platform's upload limit for files), and the process's peak
 * memory does not grow by anything like the body. Real `harness playground` process; the
 * client pushes over raw TCP and stops when the server answers (tests/support/push_body.ts).
 */
import assert from "node:assert/strict";
import { peakResidentBytes, pushBody } from "../support/push_body.ts";
import { pageToken, startPlayground } from "./support.ts";

const MB = 1024 * 1024;
const HUGE = 200 * MB;
/** Above the upload ceiling (25 MiB) plus what loopback socket buffers absorb; far below HUGE. */
const CUT_OFF_BELOW = 64 * MB;

Deno.test({
  name: "playground: a 200 MB body gets 413 before it is read, and the server's memory stays flat",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using playground = await startPlayground([], {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    });
    const token = await pageToken(playground.url);
    const own = new URL(playground.url).origin;
    const write = { origin: own, "playground-token": token };
    const json = { ...write, "content-type": "application/json" };
    const before = await peakResidentBytes(playground.pid);
    const cases = [
      { name: "post, declared", path: "/api/post", headers: json, declared: true },
      { name: "post, chunked", path: "/api/post", headers: json, declared: false },
      { name: "task, chunked", path: "/api/tasks", headers: json, declared: false },
      // The studio's writes share the small JSON ceiling.
      { name: "draft, chunked", path: "/api/drafts", headers: json, declared: false },
      { name: "replay, declared", path: "/api/replay", headers: json, declared: true },
      { name: "tool run, chunked", path: "/api/tools/run", headers: json, declared: false },
      { name: "seat, declared", path: "/api/seats", headers: json, declared: true },
      {
        name: "upload, declared",
        path: "/api/upload",
        headers: { ...write, "content-type": "multipart/form-data; boundary=x" },
        declared: true,
      },
      {
        name: "upload, chunked",
        path: "/api/upload",
        headers: { ...write, "content-type": "multipart/form-data; boundary=x" },
        declared: false,
      },
      { name: "a read, declared", path: "/api/state", headers: {}, declared: true, method: "GET" },
    ];
    for (const { name, declared, ...request } of cases) {
      const pushed = await pushBody(playground.url, {
        ...request,
        framing: declared ? { kind: "length", declared: HUGE } : { kind: "chunked" },
        total: HUGE,
      });
      assert.equal(pushed.status, 413, `${name}: ${pushed.head}`);
      assert.match(pushed.head, /exceeds \d+ bytes/, name);
      assert.ok(pushed.sent < CUT_OFF_BELOW, `${name}: ${pushed.sent / MB} MB taken before 413`);
    }
    const grown = (await peakResidentBytes(playground.pid)) - before;
    assert.ok(grown < 150 * MB, `the playground's peak memory grew by ${grown / MB} MB`);

    // An ordinary post still goes through.
    const state = await (await fetch(`${playground.url}api/state`)).json();
    const ok = await fetch(`${playground.url}api/post`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ timeline: state.timelines[0].uuid, body: "a small one" }),
    });
    assert.equal(ok.status, 201, await ok.clone().text());
    await ok.body?.cancel();
    assert.equal(await playground.stop(), 0, playground.stderr());
  },
});
