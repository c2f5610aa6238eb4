/**
 * Traces (docs/journal.md#traces): a real wake process with `OTEL_DENO=true` exports, through
 * Deno's own OTLP exporter, one `wake` span, a `chat <model>` span per model call and an
 * `execute_tool <name>` span per tool call, with the GenAI attributes, to a local OTLP/HTTP JSON
 * receiver; the model and tool spans are children of the wake's, every HTTP request of the wake
 * (its first platform reads included) is in the wake's trace, and counts are OTLP integers.
 */
import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { staticGraph } from "../support/module_graph.ts";
import { attrs, otlpReceiver, type OtlpSpan } from "../support/otlp_receiver.ts";
import { agentPosts, world } from "./wake_support.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("a wake with OTEL_DENO=true exports wake, chat and execute_tool spans with GenAI attributes", async () => {
  await using w = await world();
  const receiver = otlpReceiver();
  try {
    await w.peer.client.messages.create(
      w.timeline,
      asUser("message", { body: "hi @ada, status?" }),
    );
    w.model.reply(
      "chat",
      {
        json: chatCompletion({
          toolCalls: [{
            id: "call_0",
            name: "messages",
            arguments: { action: "create", body: "All good." },
          }],
          usage: { prompt: 120, completion: 7, cached: 64 },
        }),
      },
      { json: chatCompletion({ content: "Answered." }) },
    );
    const result = await w.wake([], {
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "harness-test",
      OTEL_DENO_CONSOLE: "ignore",
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await agentPosts(w), ["All good."]);

    const named = (name: string) => receiver.spans.filter((span) => span.name === name);
    const [wake] = named("wake");
    assert.ok(wake, `no wake span in ${receiver.spans.map((s) => s.name).join(", ")}`);
    assert.deepEqual(
      [attrs(wake)["harness.timeline"], attrs(wake)["harness.outcome"]],
      [w.timeline, "ok"],
    );
    assert.equal(attrs(wake)["gen_ai.request.model"], "scripted");
    assert.equal(attrs(wake)["harness.posted"], 1);

    const chats = named("chat scripted");
    assert.equal(chats.length, 2);
    const first = attrs(chats.find((s) => attrs(s)["gen_ai.usage.input_tokens"] === 120)!);
    assert.equal(first["gen_ai.operation.name"], "chat");
    assert.equal(first["gen_ai.provider.name"], "openai");
    assert.equal(first["gen_ai.request.model"], "scripted");
    assert.equal(first["gen_ai.usage.output_tokens"], 7);
    assert.equal(first["gen_ai.usage.cache_read.input_tokens"], 64);
    assert.equal(first["harness.outcome"], "ok");

    const [tool] = named("execute_tool messages");
    assert.ok(tool);
    assert.equal(attrs(tool)["gen_ai.tool.name"], "messages");
    assert.equal(attrs(tool)["gen_ai.tool.call.id"], "call_0");
    assert.equal(attrs(tool)["harness.outcome"], "ok");

    // One trace: the wake is the parent of every model and tool span it made.
    for (const child of [...chats, tool]) {
      assert.equal(child.traceId, wake.traceId, child.name);
      assert.equal(child.parentSpanId, wake.spanId, child.name);
    }
    // Deno's own spans for the calls join the same trace.
    assert.ok(receiver.spans.some((s) => s.traceId === wake.traceId && /^POST\b/.test(s.name)));
    // The whole wake is inside it: its first two platform calls, the timeline and the dashboard
    // reads the assembly sends, included.
    const http = receiver.spans.filter((s) => attrs(s)["http.request.method"] !== undefined);
    const paths = http.map((s) => `${attrs(s)["http.request.method"]} ${attrs(s)["url.path"]}`);
    assert.deepEqual(paths.slice(0, 2).sort(), [
      "GET /timelines/" + w.timeline,
      "GET /users/dashboard",
    ]);
    for (const span of http) {
      assert.equal(span.traceId, wake.traceId, `${span.name} ${attrs(span)["url.path"]}`);
    }

    // Counts are OTLP integers, not doubles.
    const raw = (span: OtlpSpan, key: string) =>
      span.attributes?.find((attribute) => attribute.key === key)?.value;
    const chat = chats.find((s) => attrs(s)["gen_ai.usage.input_tokens"] === 120)!;
    for (const key of ["gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"]) {
      assert.deepEqual(Object.keys(raw(chat, key) ?? {}), ["intValue"], key);
    }
    assert.deepEqual(raw(chat, "gen_ai.usage.cache_read.input_tokens"), { intValue: "64" });
    for (const key of ["harness.turns", "harness.steps", "harness.posted"]) {
      assert.deepEqual(Object.keys(raw(wake, key) ?? {}), ["intValue"], key);
    }
  } finally {
    await receiver.close();
  }
});

Deno.test("the OpenTelemetry API is on no wake's start-up graph, idle or engaged", async () => {
  for (const entry of ["lib/wake/wake.ts", "lib/wake/engaged/mod.ts", "lib/core/engine.ts"]) {
    const graph = await staticGraph(entry);
    const otel = [...graph].filter((m) => m.includes("opentelemetry") || m.endsWith("otel.ts"));
    assert.deepEqual(otel, [], entry);
  }
  // The scan sees the API where it is imported, so its absence above is real.
  assert.ok([...await staticGraph("lib/journal/otel.ts")].some((m) => m.includes("opentelemetry")));
});

Deno.test("a wake without OTEL_DENO sends the receiver nothing", async () => {
  await using w = await world();
  const receiver = otlpReceiver();
  try {
    const result = await w.wake([], {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(receiver.spans, []);
  } finally {
    await receiver.close();
  }
});
