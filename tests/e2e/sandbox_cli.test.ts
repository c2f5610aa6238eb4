/**
 * The sandbox's curl walkthrough, end to end: start `harness sandbox --port 0` as its own
 * process with the production permission set, read its one JSON line, create a user through
 * `/_sandbox/`, post a message with that token, list it, read the event log, then SIGTERM.
 */
import { readFirstLine } from "../support/first_line.ts";
import { strict as assert } from "node:assert";
import { REPO_ROOT } from "../support/run_cli.ts";

/** Deno's own notice for deno.json permission sets; not the sandbox's output. */
const DENO_PERMISSION_NOTICE =
  /^.*Permissions in the config file is an experimental feature.*\n?/gm;

/**
 * A request as `curl -s -X METHOD URL [-H …] [-d JSON]` makes it; returns status and JSON.
 * `token` is a platform token (`Authorization: Bearer`), or `{ admin }` the admin token
 * (`Sandbox-Admin-Token`).
 */
async function curl(
  method: string,
  url: string,
  token?: string | { admin: string },
  body?: unknown,
) {
  const headers: Record<string, string> = { accept: "application/json" };
  if (typeof token === "string") headers.authorization = `Bearer ${token}`;
  else if (token) headers["sandbox-admin-token"] = token.admin;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type"), json: JSON.parse(text) };
}

Deno.test("e2e: harness sandbox — one JSON line, user, message posted and listed, SIGTERM exits 0", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "main.ts", "sandbox", "--port", "0"],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  try {
    const first = await readFirstLine(reader);
    const line = first.line;
    stdout = `${line}\n${first.rest}`;
    const { base_url: base, admin_url: admin, admin_token: adminToken } = JSON.parse(line);
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(admin, `${base}/_sandbox`);
    assert.match(adminToken, /^sbx_admin_[0-9a-f]{32}$/);

    // Without the admin token the admin API refuses.
    const refused = await curl("POST", `${admin}/users`, undefined, {
      handle: "eve",
      name: "Eve",
      kind: "human",
    });
    assert.equal(refused.status, 401);
    assert.equal(refused.json.code, "admin_token_required");

    // curl -s -X POST "$ADMIN/users" -H "Sandbox-Admin-Token: $ADMIN_TOKEN" \
    //   -H 'Content-Type: application/json' -d '{"handle":"ada","name":"Ada L.","kind":"human"}'
    const user = await curl("POST", `${admin}/users`, { admin: adminToken }, {
      handle: "ada",
      name: "Ada L.",
      kind: "human",
    });
    assert.equal(user.status, 201);
    const token: string = user.json.token;
    assert.match(token, /^bc_uat_[A-Za-z0-9]{32}$/);

    // curl -s -X POST "$BASE/timelines" -H "Authorization: Bearer $TOKEN" -d '{"timeline":…}'
    const tl = await curl("POST", `${base}/timelines`, token, { timeline: { name: "Hello" } });
    assert.equal(tl.status, 201);
    const timeline: string = tl.json.timeline.uuid;

    const posted = await curl("POST", `${base}/timelines/${timeline}/messages`, token, {
      message: { body: "hello from curl" },
    });
    assert.equal(posted.status, 201);
    assert.equal(posted.json.message.user.handle, "ada");

    // curl -s "$BASE/messages?timeline=$TL" -H "Authorization: Bearer $TOKEN"
    const listed = await curl("GET", `${base}/messages?timeline=${timeline}`, token);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.json.messages.map((m: { content: { uuid: string; body: string } }) => m.content),
      [{ uuid: posted.json.message.content.uuid, body: "hello from curl" }],
    );
    assert.equal(listed.json.next_cursor, null);

    // Without the token the same list is a problem+json 401.
    const anon = await curl("GET", `${base}/messages?timeline=${timeline}`);
    assert.equal(anon.status, 401);
    assert.match(anon.type ?? "", /^application\/problem\+json/);
    assert.equal(anon.json.code, "unauthorized");

    const events = await curl("GET", `${admin}/events`, { admin: adminToken });
    assert.deepEqual(
      events.json.events.map((e: { event: string; item: string }) => [e.event, e.item]),
      [["message.created", posted.json.message.content.uuid]],
    );
  } finally {
    child.kill("SIGTERM");
  }
  const status = await child.status;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    stdout += value;
  }
  assert.equal(status.code, 0);
  assert.equal(stdout.split("\n").filter((l) => l !== "").length, 1, "one line on stdout");
  const log = (await stderr).replace(DENO_PERMISSION_NOTICE, "");
  const lines = log.split("\n").filter((l) => l !== "");
  assert.ok(lines.every((l) => l.startsWith("sandbox ")), log);
  assert.match(log, /^sandbox request method=GET path=\/messages status=200 ms=\d+$/m);
  assert.match(log, /^sandbox stopping signal=SIGTERM$/m);
  assert.ok(!log.includes("bc_uat_"), "tokens are never logged");
  assert.ok(!log.includes("hello from curl"), "bodies are never logged");
});
