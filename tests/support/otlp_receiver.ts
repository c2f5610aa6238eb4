/**
 * A local OpenTelemetry receiver for tests: `POST /v1/traces` in OTLP/HTTP JSON
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), the way Deno's built-in exporter sends spans when a
 * process runs with `OTEL_DENO=true`.
 */

/** An OTLP attribute value as JSON (`intValue` arrives as a string). */
export type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};

/** One exported span, as far as the tests read it. */
export interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: { key: string; value: AnyValue }[];
  status?: { code?: number };
}

/** A running receiver: the spans received so far, its base URL, and how to stop it. */
export interface OtlpReceiver {
  readonly spans: OtlpSpan[];
  /** The value for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  close(): Promise<void>;
}

/** A receiver for `POST /v1/traces` (http/json) that keeps every span it is sent. */
export function otlpReceiver(): OtlpReceiver {
  const spans: OtlpSpan[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/v1/traces") {
      const body = await req.json() as {
        resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) spans.push(...scope.spans ?? []);
      }
    } else {
      await req.body?.cancel();
    }
    return Response.json({});
  });
  return {
    spans,
    url: `http://127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}

/** A span's attributes as a plain object (ints and doubles as numbers). */
export function attrs(span: OtlpSpan): Record<string, string | number | boolean | undefined> {
  return Object.fromEntries(
    (span.attributes ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? value.doubleValue ??
        (value.intValue === undefined ? value.boolValue : Number(value.intValue)),
    ]),
  );
}
