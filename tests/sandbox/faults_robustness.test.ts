import { strict as assert } from "node:assert";
import { expectProblem, withSandbox } from "./helpers.ts";

Deno.test("faults: status for the next `count` matching requests, then normal service", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const f = await h.admin.post("/_sandbox/faults", {
      path: "^/timelines$",
      status: 503,
      count: 2,
    });
    assert.equal(f.status, 201);
    assert.equal(f.body.fault.count, 2);
    expectProblem(await ada.api.get("/timelines"), 503, "service_unavailable");
    // A non-matching path is unaffected and does not consume the fault.
    assert.equal((await ada.api.get("/users")).status, 200);
    expectProblem(await ada.api.get("/timelines"), 503, "service_unavailable");
    assert.equal((await ada.api.get("/timelines")).status, 200);

    await h.admin.post("/_sandbox/faults", { path: "^/users", status: 429 });
    const limited = expectProblem(await ada.api.get("/users"), 429, "rate_limited");
    assert.ok(limited);
    await h.admin.post("/_sandbox/faults", { path: "^/users", status: 429 });
    const r = await ada.api.get("/users");
    assert.equal(r.headers.get("retry-after"), "1");

    await h.admin.post("/_sandbox/faults", { path: "/messages", status: 502 });
    const proxy = await ada.api.get("/messages");
    assert.equal(proxy.status, 502);
    assert.match(proxy.headers.get("content-type")!, /text\/html/);
    assert.match(proxy.text, /Bad Gateway/);
    assert.equal((await ada.api.get("/messages")).status, 200);
  }));

Deno.test("faults: delay is honoured for `count` requests only", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    await h.admin.post("/_sandbox/faults", { path: "^/users/dashboard$", delay_ms: 300, count: 1 });
    let t = performance.now();
    assert.equal((await ada.api.get("/users/dashboard")).status, 200);
    assert.ok(performance.now() - t >= 280, "first request delayed");
    t = performance.now();
    assert.equal((await ada.api.get("/users/dashboard")).status, 200);
    assert.ok(performance.now() - t < 250, "second request not delayed");
  }));

Deno.test("faults: a request held by a delay is listed as pending until it is answered", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    await h.admin.post("/_sandbox/faults", { path: "^/users/dashboard$", delay_ms: 400, count: 1 });
    assert.deepEqual(h.sandbox.pending, []);
    const answered = ada.api.get("/users/dashboard");
    const deadline = Date.now() + 5000;
    while (h.sandbox.pending.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.deepEqual(h.sandbox.pending, [{ method: "GET", path: "/users/dashboard" }]);
    assert.ok(!h.sandbox.requests.some((r) => r.path === "/users/dashboard"), "not served yet");
    assert.equal((await answered).status, 200);
    assert.deepEqual(h.sandbox.pending, []);
    assert.ok(h.sandbox.requests.some((r) => r.path === "/users/dashboard"));
  }));

Deno.test("faults: commit mode stores the record but loses the response", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    await h.admin.post("/_sandbox/faults", {
      path: "/messages$",
      method: "POST",
      status: 502,
      commit: true,
    });
    const lost = await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "x" } }, {
      "Idempotency-Key": "crash-1",
    });
    assert.equal(lost.status, 502);
    const again = await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "y" } }, {
      "Idempotency-Key": "crash-1",
    });
    assert.equal(again.status, 201);
    assert.equal(again.body.message.content.body, "x");
    assert.equal((await ada.api.get(`/messages?timeline=${tl}`)).body.messages.length, 1);
  }));

Deno.test("faults: bad specs are 422", () =>
  withSandbox(async (h) => {
    expectProblem(
      await h.admin.post("/_sandbox/faults", { path: "(", status: 500 }),
      422,
      "validation_failed",
    );
    expectProblem(await h.admin.post("/_sandbox/faults", { path: "x" }), 422, "validation_failed");
    expectProblem(
      await h.admin.post("/_sandbox/faults", { path: "x", status: "500" }),
      422,
      "validation_failed",
    );
    expectProblem(
      await h.admin.post("/_sandbox/users", { handle: "../x", name: "x", kind: "ai" }),
      422,
      "validation_failed",
    );
    expectProblem(
      await h.admin.post("/_sandbox/users", { handle: "x", name: "x", kind: "robot" }),
      422,
      "validation_failed",
    );
    await h.user("dup");
    const dup = expectProblem(
      await h.admin.post("/_sandbox/users", { handle: "DUP", name: "x", kind: "ai" }),
      422,
      "validation_failed",
    );
    assert.deepEqual(dup.errors, { handle: ["has already been taken"] });
  }));

Deno.test("robustness: wrong JSON, wrong types, unknown routes, wrong methods, oversized bodies", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    const raw = (
      method: string,
      path: string,
      body?: BodyInit,
      headers: Record<string, string> = {},
    ) =>
      ada.api.request(method, path, body as string, {
        "content-type": "application/json",
        ...headers,
      });
    expectProblem(await raw("POST", "/timelines", "{nope"), 400, "bad_request");
    expectProblem(await raw("POST", "/timelines", "[1,2]"), 422, "validation_failed");
    expectProblem(await raw("POST", "/timelines", "42"), 422, "validation_failed");
    expectProblem(await raw("POST", "/timelines", "null"), 422, "validation_failed");
    const typed = expectProblem(
      await ada.api.post(`/timelines/${tl}/messages`, { message: { body: 42 } }),
      422,
      "validation_failed",
    );
    assert.deepEqual(typed.errors, { body: ["must be a string"] });
    expectProblem(
      await ada.api.post(`/timelines/${tl}/messages`, { message: "hi" }),
      422,
      "validation_failed",
    );
    expectProblem(
      await ada.api.post(`/timelines/${tl}/participations`, { user_id: [] }),
      422,
      "validation_failed",
    );
    expectProblem(await ada.api.get("/nowhere"), 404, "not_found");
    expectProblem(await h.anon.get("/nowhere/at/all"), 404, "not_found");
    const wrong = expectProblem(
      await ada.api.request("PUT", "/timelines"),
      405,
      "method_not_allowed",
    );
    assert.ok(wrong);
    expectProblem(
      await h.anon.post(`/timelines/${tl}/messages`, { message: { body: "x" } }),
      401,
      "unauthorized",
    );
    expectProblem(
      await h.anon.request("GET", "/timelines", undefined, { authorization: "Basic abc" }),
      401,
      "unauthorized",
    );
    const big = JSON.stringify({ message: { body: "x".repeat(2 * 1024 * 1024) } });
    expectProblem(await raw("POST", `/timelines/${tl}/messages`, big), 413, "payload_too_large");
    // A chunked body with no Content-Length is cut off at the limit too.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
        for (let i = 0; i < 40; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await fetch(`${h.base}/timelines/${tl}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${ada.token}`, "content-type": "application/json" },
      body: stream,
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).code, "payload_too_large");
    // The .json suffix the dashboard advertises addresses the same resource.
    assert.equal((await ada.api.get("/timelines.json")).status, 200);
    // After all that the sandbox still serves.
    assert.equal((await ada.api.get(`/timelines/${tl}`)).status, 200);
    // No request above was answered with a 500.
    assert.ok(h.sandbox.requests.every((r) => r.status < 500));
  }));

Deno.test("robustness: a large multipart upload over the limit is refused cleanly", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    const form = new FormData();
    form.append("asset[file]", new File([new Uint8Array(26 * 1024 * 1024)], "huge.bin"));
    expectProblem(await ada.api.post(`/timelines/${tl}/assets`, form), 413, "payload_too_large");
    assert.equal((await ada.api.get(`/assets?timeline=${tl}`)).body.assets.length, 0);
  }));
