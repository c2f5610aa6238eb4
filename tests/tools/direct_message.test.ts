/**
 * send_direct_message_to_origin against a local stub of an ntfy server: the exact request, the
 * 4096-byte refusal, the one retry (5xx and transport error, never 4xx), the token kept out of
 * every text, and that the call is never counted as speech.
 */
import { strict as assert } from "node:assert";
import {
  DEFAULT_NTFY_DM_URL,
  DirectMessageConfigError,
  directMessageEndpointFrom,
  DirectMessageTool,
} from "../../lib/tools/direct_message.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { PlatformClient } from "../../lib/platform/mod.ts";
import { SimpleContext } from "../../lib/tools/shared/simple_context.ts";
import type { ToolVerdict } from "../../lib/core/types/tool.ts";
import { startStub } from "../support/http_stub.ts";
import { sleep } from "../../lib/base/sleep.ts";
import { Gate } from "../../lib/gate/gate.ts";

const TOKEN = "tk_secret_ntfy_token_123";
/** The agent's own platform token: the gate refuses it in a direct message. */
const SECRET_TOKEN = "bc_uat_9f8e7d6c5b4a39281706f5e4d3c2b1a0";

function contextFor(handle = "scout") {
  const journal = new MemoryJournal();
  // Never called: the tool talks to ntfy only, not the platform.
  const client = new PlatformClient({ baseUrl: "http://127.0.0.1:9", token: SECRET_TOKEN });
  const context = new SimpleContext({
    client,
    timeline: "0190f0a4-0000-7000-8000-000000000001",
    self: { uuid: "0190f0a4-0000-7000-8000-000000000002", handle },
    journal,
    gate: new Gate({ client, journal, secrets: [SECRET_TOKEN] }),
  });
  return { context, journal };
}

/** Records the sleeps instead of waiting. */
function sleeps() {
  const waited: number[] = [];
  return { waited, sleep: (ms: number) => (waited.push(ms), Promise.resolve()) };
}

function outcomes() {
  const seen: ToolVerdict[] = [];
  return { seen, call: { callId: "c1", reportOutcome: (o: ToolVerdict) => void seen.push(o) } };
}

Deno.test("direct message: posts the body with the exact headers and logs the send", async () => {
  await using stub = await startStub(() => new Response('{"id":"x"}'));
  const { context, journal } = contextFor("scout");
  const { waited, sleep } = sleeps();
  const tool = new DirectMessageTool({ url: `${stub.url}/dm`, token: TOKEN }, context, { sleep });
  const out = await tool.run({ body: "Server room is on fire ☕" }, { callId: "c1" });
  const bytes = new TextEncoder().encode("Server room is on fire ☕").length;
  assert.equal(out, `Direct message sent to the operator (${bytes} bytes).`);
  assert.equal(stub.requests.length, 1);
  const request = stub.requests[0];
  assert.equal(request.method, "POST");
  assert.equal(request.path, "/dm");
  assert.equal(request.headers.get("authorization"), `Bearer ${TOKEN}`);
  assert.equal(request.headers.get("title"), "BaseCradle DM from @scout");
  assert.equal(request.headers.get("priority"), "5");
  assert.equal(request.headers.get("tags"), "speech_balloon");
  assert.equal(request.text(), "Server room is on fire ☕");
  assert.deepEqual(waited, []);
  assert.deepEqual(journal.lines, [
    `INFO direct_message sent bytes=${bytes} title="BaseCradle DM from @scout"`,
  ]);
  // Not speech: nothing is recorded as a visible act.
  assert.deepEqual(context.acts, []);
});

Deno.test("direct message: an unknown handle gives the plain title", async () => {
  await using stub = await startStub(() => new Response("ok"));
  const { context } = contextFor("");
  await new DirectMessageTool({ url: stub.url, token: TOKEN }, context).run({ body: "hi" });
  assert.equal(stub.requests[0].headers.get("title"), "BaseCradle DM");
});

Deno.test("direct message: 4096 bytes is sent; 4097 ASCII bytes is refused, never truncated", async () => {
  await using stub = await startStub(() => new Response("ok"));
  const { context, journal } = contextFor();
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN }, context);
  assert.match(await tool.run({ body: "a".repeat(4096) }), /sent .*\(4096 bytes\)/);
  const { seen, call } = outcomes();
  const out = await tool.run({ body: "a".repeat(4097) }, call);
  assert.equal(
    out,
    "Error: 'body' is 4097 UTF-8 bytes; the limit is 4096. Shorten it and send again " +
      "(nothing was sent).",
  );
  assert.deepEqual(seen, ["invalid"]);
  assert.equal(stub.requests.length, 1);
  assert.equal(journal.lines.length, 1);
});

Deno.test("direct message: the limit counts UTF-8 bytes, not characters", async () => {
  await using stub = await startStub(() => new Response("ok"));
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN }, contextFor().context);
  // 1366 × "€" (3 bytes each) = 4098 bytes in only 1366 characters.
  const out = await tool.run({ body: "€".repeat(1366) });
  assert.match(out, /^Error: 'body' is 4098 UTF-8 bytes; the limit is 4096\./);
  assert.equal(stub.requests.length, 0);
});

Deno.test("direct message: bad arguments are an error the model can read", async () => {
  const tool = new DirectMessageTool({ url: "http://127.0.0.1:9", token: TOKEN });
  for (const args of [{}, { body: 7 }, null, { body: "  " }]) {
    const { seen, call } = outcomes();
    assert.match(await tool.run(args, call), /^Error: /);
    assert.deepEqual(seen, ["invalid"]);
  }
});

Deno.test("direct message: a 5xx is retried once after 1 s, then succeeds", async () => {
  let calls = 0;
  await using stub = await startStub(() =>
    ++calls === 1 ? new Response("busy", { status: 503 }) : new Response("ok")
  );
  const { context, journal } = contextFor();
  const { waited, sleep } = sleeps();
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN }, context, { sleep });
  assert.match(await tool.run({ body: "ping" }), /^Direct message sent/);
  assert.equal(stub.requests.length, 2);
  assert.deepEqual(waited, [1000]);
  assert.equal(stub.requests[1].text(), "ping");
  assert.deepEqual(journal.lines, [
    'INFO direct_message sent bytes=4 title="BaseCradle DM from @scout"',
  ]);
});

Deno.test("direct message: two 5xx fail after exactly one retry, logged with the reason", async () => {
  await using stub = await startStub(() => new Response("down", { status: 502 }));
  const { context, journal } = contextFor();
  const { waited, sleep } = sleeps();
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN }, context, { sleep });
  const out = await tool.run({ body: "ping" });
  assert.equal(out, "Error: direct message not sent — HTTP 502: down.");
  assert.equal(stub.requests.length, 2);
  assert.deepEqual(waited, [1000]);
  assert.deepEqual(journal.lines, [
    'WARNING direct_message failed bytes=4 reason="HTTP 502: down"',
  ]);
});

Deno.test("direct message: a 4xx is not retried", async () => {
  await using stub = await startStub(() => new Response("forbidden", { status: 403 }));
  const { context, journal } = contextFor();
  const { waited, sleep } = sleeps();
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN }, context, { sleep });
  assert.equal(
    await tool.run({ body: "ping" }),
    "Error: direct message not sent — HTTP 403: forbidden.",
  );
  assert.equal(stub.requests.length, 1);
  assert.deepEqual(waited, []);
  assert.equal(journal.lines.length, 1);
  assert.match(journal.lines[0], /^WARNING direct_message failed bytes=4 reason=/);
});

Deno.test("direct message: a transport error is retried once", async () => {
  let calls = 0;
  const flaky: typeof fetch = (input, init) => {
    calls++;
    if (calls === 1) return Promise.reject(new TypeError("connection reset"));
    return fetch(input, init);
  };
  await using stub = await startStub(() => new Response("ok"));
  const { waited, sleep } = sleeps();
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN }, contextFor().context, {
    sleep,
    fetch: flaky,
  });
  assert.match(await tool.run({ body: "ping" }), /^Direct message sent/);
  assert.equal(calls, 2);
  assert.equal(stub.requests.length, 1);
  assert.deepEqual(waited, [1000]);
});

Deno.test("direct message: an unreachable server fails after one retry, the reason readable", async () => {
  // A stub that has shut down refuses the connection: a real transport error, not a simulated one.
  const gone = await startStub(() => new Response("ok"));
  await gone.close();
  const { context, journal } = contextFor();
  const { waited, sleep } = sleeps();
  const tool = new DirectMessageTool({ url: `${gone.url}/dm`, token: TOKEN }, context, {
    sleep,
  });
  const out = await tool.run({ body: "ping" });
  assert.match(out, /^Error: direct message not sent — transport error: /);
  assert.deepEqual(waited, [1000]);
  assert.match(
    journal.lines[0],
    /^WARNING direct_message failed bytes=4 reason="transport error: /,
  );
});

Deno.test("direct message: the token never reaches the model's text or the journal", async () => {
  // A server that echoes the Authorization header back in its error body.
  await using stub = await startStub((rec) =>
    new Response(`bad auth ${rec.headers.get("authorization")}`, { status: 401 })
  );
  const { context, journal } = contextFor();
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN }, context);
  const out = await tool.run({ body: "ping" });
  assert.ok(!out.includes(TOKEN), out);
  assert.match(out, /bad auth Bearer \*\*\*/);
  for (const line of journal.lines) assert.ok(!line.includes(TOKEN), line);

  const thrower: typeof fetch = () => Promise.reject(new Error(`dns failed for ${TOKEN}`));
  const { context: c2, journal: j2 } = contextFor();
  const out2 = await new DirectMessageTool({ url: stub.url, token: TOKEN }, c2, {
    sleep: () => Promise.resolve(),
    fetch: thrower,
  }).run({ body: "ping" });
  assert.ok(!out2.includes(TOKEN), out2);
  for (const line of j2.lines) assert.ok(!line.includes(TOKEN), line);
});

Deno.test("direct message: no token is a refusal, nothing sent", async () => {
  const tool = new DirectMessageTool({ url: "http://127.0.0.1:9" }, contextFor().context);
  const { seen, call } = outcomes();
  assert.equal(
    await tool.run({ body: "ping" }, call),
    "Error: direct message not sent — NTFY_DM_TOKEN is not set.",
  );
  assert.deepEqual(seen, ["refused"]);
});

Deno.test("direct message endpoint: default, override, and a bad NTFY_DM_URL named", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(directMessageEndpointFrom(env({ NTFY_DM_TOKEN: " t " })), {
    url: DEFAULT_NTFY_DM_URL,
    token: "t",
  });
  assert.equal(DEFAULT_NTFY_DM_URL, "https://ntfy.sh/BaseCradle-Direct-Message");
  assert.equal(
    directMessageEndpointFrom(env({ NTFY_DM_URL: "http://127.0.0.1:8/x" })).url,
    "http://127.0.0.1:8/x",
  );
  assert.throws(
    () => directMessageEndpointFrom(env({ NTFY_DM_URL: "ftp://x" })),
    (error: Error) =>
      error instanceof DirectMessageConfigError && /NTFY_DM_URL/.test(error.message),
  );
});

/** A server that takes the push and never answers (until the stub shuts down). */
function silent(_rec: unknown, _req: Request, closing: AbortSignal): Promise<Response> {
  return new Promise((done) => {
    closing.addEventListener("abort", () => done(new Response("too late")), { once: true });
  });
}

Deno.test("direct message: a server that never answers cannot hold the call past its deadline", async () => {
  await using stub = await startStub(silent);
  const { context, journal } = contextFor();
  const { waited, sleep } = sleeps();
  const tool = new DirectMessageTool({ url: `${stub.url}/dm`, token: TOKEN }, context, {
    sleep,
    deadlineMs: 1000, // the production deadline is NTFY_DEADLINE_MS (5 s)
  });
  const { seen, call } = outcomes();
  // The call returns while the server still holds the request: the deadline ended it.
  const out = await tool.run({ body: "ping" }, call);
  assert.equal(
    out,
    "The direct message may have been delivered: no answer within 1 s (it may have " +
      "arrived). Do not send it again; the operator may already have it.",
  );
  // At most the one push (under heavy load it may not even have arrived): never a second.
  assert.ok(stub.requests.length <= 1, "an unanswered push is not sent again");
  assert.deepEqual(waited, []);
  assert.deepEqual(seen, []);
  assert.deepEqual(journal.lines, [
    'WARNING direct_message failed bytes=4 reason="no answer within 1 s (it may have arrived)"',
  ]);
});

Deno.test("direct message: the retry's wait counts against the deadline too", async () => {
  await using stub = await startStub(() => new Response("down", { status: 503 }));
  const { context } = contextFor();
  // A wait that would outlast the deadline ends with it (the real wait, a minute long): the
  // retry is never sent.
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN }, context, {
    sleep: (_ms, signal) => sleep(60_000, signal),
    deadlineMs: 3000, // generous: the 503 must arrive before it, however loaded the machine
  });
  assert.equal(
    await tool.run({ body: "ping" }),
    "Error: direct message not sent — HTTP 503: down; then no answer within 3 s, so no retry.",
  );
  assert.equal(stub.requests.length, 1);
});

Deno.test("direct message: the agent's own token is blocked by the gate; nothing is sent", async () => {
  await using stub = await startStub(() => new Response("ok"));
  const { context, journal } = contextFor();
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN }, context);
  const { seen, call } = outcomes();
  const args = { body: `here is my token: ${SECRET_TOKEN}` };
  const out = await tool.run(args, call);
  assert.match(
    out,
    /^Error: direct message not sent — the outbound gate blocked the direct message/,
  );
  assert.match(out, /failed checks?: known_secrets/);
  assert.ok(!out.includes(SECRET_TOKEN));
  assert.deepEqual(seen, ["blocked"]);
  assert.equal(stub.requests.length, 0);
  // The call's own arguments (what the transcript keeps) no longer hold the token.
  assert.equal(args.body, "here is my token: [redacted]");
  assert.match(
    journal.lines.join("\n"),
    /WARNING post blocked timeline=- kind=direct_message check=/,
  );
});

Deno.test("direct message: without a wake's context nothing screens it, so nothing is sent", async () => {
  await using stub = await startStub(() => new Response("ok"));
  const tool = new DirectMessageTool({ url: stub.url, token: TOKEN });
  const { seen, call } = outcomes();
  assert.match(await tool.run({ body: "hello" }, call), /^Error: direct message not sent/);
  assert.deepEqual(seen, ["refused"]);
  assert.equal(stub.requests.length, 0);
});
