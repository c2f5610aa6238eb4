/**
 * Trace spans through Deno's built-in OpenTelemetry export (docs/journal.md#traces). Loaded only
 * by a process that runs with `OTEL_DENO` on (stream_journal.ts asks for it on the first span),
 * so a wake without tracing never reads the OpenTelemetry API. Deno registers its tracer
 * provider with `@opentelemetry/api` itself; spans made here join the same traces as the spans
 * Deno makes for each `fetch`, and nest: a model call's span is a child of its wake's.
 */
import { type Attributes, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Span, SpanAttributes } from "./journal.ts";
import { scrubSecrets } from "./scrub.ts";
import { VERSION } from "../base/version.ts";

const tracer = trace.getTracer("basecradle-harness", VERSION);

/**
 * The attributes that are counts, exported as OTLP integers (`intValue`): the GenAI semantic
 * conventions type token usage as int, and a backend that sums or groups by them needs one type
 * per key. Deno exports a JavaScript number as a double and a bigint as an integer, so these go
 * out as bigints; every other number (`harness.cost`) stays a double.
 */
export const INTEGER_ATTRIBUTES: ReadonlySet<string> = new Set([
  "gen_ai.usage.input_tokens",
  "gen_ai.usage.output_tokens",
  "gen_ai.usage.cache_read.input_tokens",
  "harness.turns",
  "harness.steps",
  "harness.posted",
]);

/**
 * A span's attributes as exported: text scrubbed like a journal line (it can come from elsewhere,
 * an error message), counts as integers.
 */
export function attributes(values: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (typeof value === "number" && INTEGER_ATTRIBUTES.has(key) && Number.isSafeInteger(value)) {
      // The API's types predate bigint values; Deno's exporter takes them as OTLP integers.
      out[key] = BigInt(value) as unknown as number;
    } else out[key] = typeof value === "string" ? scrubSecrets(value) : value;
  }
  return out;
}

/**
 * Runs `work` inside an active span named `name`: the span ends when the work settles, with
 * status ERROR, `error.type` and the exception recorded when it throws (the error is rethrown).
 */
export function inSpan<T>(
  name: string,
  initial: SpanAttributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes: attributes(initial) }, async (span) => {
    const handle: Span = { setAttributes: (values) => span.setAttributes(attributes(values)) };
    try {
      return await work(handle);
    } catch (error) {
      const type = error instanceof Error ? error.name : typeof error;
      const message = scrubSecrets(error instanceof Error ? error.message : String(error));
      span.setAttributes({ "error.type": type });
      span.setStatus({ code: SpanStatusCode.ERROR, message });
      throw error;
    } finally {
      span.end();
    }
  });
}
