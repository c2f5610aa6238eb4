/**
 * Every route of the sandbox has a body ceiling, enforced before the body is read: a declared
 * length over it is answered 413 at once, and a chunked body is cut off where it crosses it, so
 * a 200 MB request never makes the server hold 200 MB. Real `harness sandbox` process, so its
 * peak resident memory can be read from /proc; the client pushes bodies over raw TCP and stops
 * when the server answers (tests/support/push_body.ts), so nothing here is timed.
 */
import { strict as assert } from "node:assert";
import { readFirstLine } from "../support/first_line.ts";
import { REPO_ROOT } from "../support/run_cli.ts";
import { type Framing, peakResidentBytes, pushBody } from "../support/push_body.ts";

const MB = 1024 * 1024;
const HUGE = 200 * MB;
/** Far below HUGE, far above what loopback socket buffers absorb before an early answer. */
const CUT_OFF_BELOW = 64 * MB;

Deno.test("sandbox: a 200 MB body gets 413 on every kind of route, before it is read, and memory stays flat", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "--quiet", "main.ts", "sandbox", "--port", "0"],
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const { line } = await readFirstLine(reader);
    const { base_url: base, admin_token: adminToken } = JSON.parse(line);
    const admin = { "sandbox-admin-token": adminToken, "content-type": "application/json" };
    const user = await (await fetch(`${base}/_sandbox/users`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ handle: "ada", name: "Ada", kind: "human" }),
    })).json();
    const auth = { authorization: `Bearer ${user.token}`, "content-type": "application/json" };
    const timeline = (await (await fetch(`${base}/timelines`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ timeline: { name: "limits" } }),
    })).json()).timeline.uuid;
    const endpoint = (await (await fetch(`${base}/timelines/${timeline}/webhook_endpoints`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ webhook_endpoint: { description: "hook" } }),
    })).json()).webhook_endpoint.content.ingest_url as string;
    const before = await peakResidentBytes(child.pid);

    const bearer = { authorization: `Bearer ${user.token}` };
    const routes: {
      name: string;
      method?: string;
      path: string;
      headers: Record<string, string>;
      reads: boolean;
    }[] = [
      { name: "JSON create", path: `/timelines/${timeline}/messages`, headers: auth, reads: true },
      {
        name: "asset upload",
        path: `/timelines/${timeline}/assets`,
        headers: { ...bearer, "content-type": "multipart/form-data; boundary=x" },
        reads: true,
      },
      { name: "webhook ingest", path: new URL(endpoint).pathname, headers: {}, reads: true },
      {
        name: "demo model",
        path: "/_sandbox/model/v1/chat/completions",
        headers: { authorization: "Bearer anything", "content-type": "application/json" },
        reads: true,
      },
      {
        name: "admin verb without a body",
        path: `/_sandbox/tasks/${crypto.randomUUID()}/activate`,
        headers: { "sandbox-admin-token": adminToken },
        reads: false,
      },
      { name: "GET", method: "GET", path: "/users/dashboard", headers: bearer, reads: false },
    ];
    const framings: Framing[] = [{ kind: "length", declared: HUGE }, { kind: "chunked" }];
    for (const route of routes) {
      for (const framing of framings) {
        // A route that never reads a body has nothing to cut off when none is declared.
        if (framing.kind === "chunked" && !route.reads) continue;
        const pushed = await pushBody(base, { ...route, framing, total: HUGE });
        const label = `${route.name}, ${framing.kind}`;
        assert.equal(pushed.status, 413, `${label}: ${pushed.head}`);
        assert.ok(
          pushed.sent < CUT_OFF_BELOW,
          `${label}: the server took ${pushed.sent / MB} MB before answering`,
        );
      }
    }
    const grown = (await peakResidentBytes(child.pid)) - before;
    assert.ok(grown < 150 * MB, `the sandbox's peak memory grew by ${grown / MB} MB`);

    // Bodies under the ceilings still work.
    const ok = await fetch(`${base}/timelines/${timeline}/messages`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ message: { body: "still fine" } }),
    });
    assert.equal(ok.status, 201);
    await ok.body?.cancel();
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await reader.cancel();
  }
});
