/**
 * Fault injection, so a client's "keep state, retry next wake" paths can be exercised: the next
 * `count` requests whose path matches a pattern are answered with a status and/or delayed.
 */
import { Problem, problemResponse } from "./problem.ts";
import { uuid7 } from "./uuid7.ts";

/** What `POST /_sandbox/faults` accepts. */
export interface FaultSpec {
  /** A regular expression tested against the request path (no query). */
  readonly path: string;
  /** Answer with this status instead of the real response. */
  readonly status?: number;
  /** How many matching requests the fault applies to. */
  readonly count: number;
  /** Wait this long before answering. */
  readonly delay_ms?: number;
  /** Only requests with this method (any method when absent). */
  readonly method?: string;
  /**
   * Process the request for real, then answer with `status` anyway: a committed write whose
   * response was lost, the case idempotency keys exist for.
   */
  readonly commit?: boolean;
  /**
   * Process the request for real, then spoil the real answer's body: `truncate` sends the first
   * half of it as a complete response (a 201 whose JSON is cut short), `cut` drops the connection
   * halfway through it. Either way the write is committed and its answer lost.
   */
  readonly body?: "truncate" | "cut";
}

/** A registered fault and how many uses it has left. */
export interface Fault extends FaultSpec {
  /** The fault's id, for removing it. */
  readonly uuid: string;
  /** Uses left; the fault is dropped when it reaches 0. */
  remaining: number;
}

/** The registered faults, consumed in registration order. */
export class FaultTable {
  readonly #faults: Array<Fault & { pattern: RegExp }> = [];

  /** Registers a fault. */
  add(spec: FaultSpec): Fault {
    const fault = { ...spec, uuid: uuid7(), remaining: spec.count, pattern: new RegExp(spec.path) };
    this.#faults.push(fault);
    return publicView(fault);
  }

  /** Consumes one use of the first live fault matching the request, if any. */
  take(method: string, path: string): Fault | undefined {
    const index = this.#faults.findIndex((f) =>
      f.remaining > 0 && (!f.method || f.method.toUpperCase() === method) && f.pattern.test(path)
    );
    if (index < 0) return undefined;
    const fault = this.#faults[index];
    fault.remaining--;
    if (fault.remaining === 0) this.#faults.splice(index, 1);
    return publicView(fault);
  }
}

function publicView(fault: Fault & { pattern?: RegExp }): Fault {
  const { pattern: _pattern, ...rest } = fault;
  return rest;
}

const CODES: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  422: "validation_failed",
  429: "rate_limited",
  500: "internal_server_error",
  502: "bad_gateway",
  503: "service_unavailable",
  504: "gateway_timeout",
};

/**
 * The injected answer: problem+json for most statuses (429 with `Retry-After: 1`), but an HTML
 * page for 502, because that is what a proxy in front of the platform sends.
 */
export function faultResponse(status: number): Response {
  if (status === 502) {
    return new Response(
      "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>\n",
      { status, headers: { "content-type": "text/html" } },
    );
  }
  const code = CODES[status] ?? (status >= 500 ? "server_error" : "injected_fault");
  const headers = status === 429 ? { "retry-after": "1" } : undefined;
  const errors = status === 422 ? {} : undefined;
  return problemResponse(
    new Problem(status, code, `Injected fault: the sandbox answered ${status}.`, errors, headers),
  );
}
