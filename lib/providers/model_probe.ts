/**
 * Asking the model endpoint, without a completion, whether a wake could use it
 * (docs/operating.md#harness-doctor): the key is accepted and the model is one it serves. Both
 * SDKs' endpoints speak the OpenAI models API, so the openai SDK asks `GET models/<AI_MODEL>`
 * and, when that route is not there, `GET models` and looks for the id. OpenRouter answers the
 * model list without a key, so there the key is asked about on its own route (`GET key`).
 * Anthropic is asked through its own SDK, `GET /v1/models/<AI_MODEL>`, which needs the key.
 */
import { outboundFetch } from "../net/outbound.ts";
import { refusalIn } from "../net/refusal.ts";
import { DEFAULT_BASE_URLS } from "./openai.ts";
import { ANTHROPIC_BASE_URL } from "./anthropic.ts";
import { withoutNodeGlobals } from "./without_node_globals.ts";

/** What the endpoint said. */
export type ModelProbeVerdict =
  /** The key was accepted and the model is known. */
  | "ok"
  /** 401/403: the key was refused. */
  | "key-refused"
  /** The endpoint lists its models and this one is not among them (or 404s it by name). */
  | "model-unknown"
  /** The key works as far as can be told, but the endpoint has no models route to ask. */
  | "unconfirmed"
  /** No answer: connection refused, DNS, a timeout. */
  | "unreachable"
  /** Not asked: the fetch path refused the request (host_rules.json does not list the host). */
  | "refused"
  /** Anything else (a 5xx, a malformed answer). */
  | "error";

/** The verdict and one sentence saying what was seen. */
export interface ModelProbe {
  readonly verdict: ModelProbeVerdict;
  readonly detail: string;
}

/** What {@link probeModel} asks about. */
export interface ModelProbeOptions {
  /** `AI_PROVIDER`: picks the default endpoint when `baseURL` is unset. */
  readonly provider: string;
  readonly model: string;
  readonly apiKey: string;
  /** `AI_BASE_URL`; unset ⇒ the vendor default (the SDK's own for openai). */
  readonly baseURL?: string;
  /** Per-request timeout, milliseconds. */
  readonly timeoutMs: number;
}

/** The HTTP status of an SDK error, undefined when no answer came. */
function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/** A one-line reason from an SDK error. */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim().slice(0, 200);
}

/** Asks the endpoint about the key and the model. Never throws. */
export async function probeModel(options: ModelProbeOptions): Promise<ModelProbe> {
  if (options.provider === "anthropic") return await probeAnthropic(options);
  let client: import("openai").default;
  try {
    const module = await withoutNodeGlobals(() => import("openai"));
    client = withoutNodeGlobals(() =>
      new module.default({
        apiKey: options.apiKey,
        baseURL: options.baseURL ?? DEFAULT_BASE_URLS[options.provider],
        maxRetries: 0,
        timeout: options.timeoutMs,
        // The fetch path: under host rules (harness doctor installs them) the probe goes only
        // where a wake's model call may.
        fetch: outboundFetch("model"),
      })
    );
  } catch (error) {
    return { verdict: "error", detail: `could not set up the openai SDK: ${reasonOf(error)}` };
  }
  const where = client.baseURL;
  const refused = (status: number): ModelProbe => ({
    verdict: "key-refused",
    detail: `${where} refused the key with HTTP ${status}`,
  });
  const failed = (error: unknown): ModelProbe => {
    const refusal = refusalIn(error);
    if (refusal) {
      return { verdict: "refused", detail: `${where} was not asked: ${refusal.message}` };
    }
    return statusOf(error) === undefined
      ? { verdict: "unreachable", detail: `${where} did not answer: ${reasonOf(error)}` }
      : {
        verdict: "error",
        detail: `${where} answered HTTP ${statusOf(error)}: ${reasonOf(error)}`,
      };
  };

  let known: "yes" | "no" | "unknown";
  try {
    await client.models.retrieve(options.model);
    known = "yes";
  } catch (error) {
    const status = statusOf(error);
    if (status === 401 || status === 403) return refused(status);
    if (status !== 404 && status !== 405) return failed(error);
    if ((error as { code?: unknown }).code === "model_not_found") {
      return { verdict: "model-unknown", detail: `${where} has no model '${options.model}'` };
    }
    try {
      known = await listed(client, options.model);
    } catch (listError) {
      const listStatus = statusOf(listError);
      if (listStatus === 401 || listStatus === 403) return refused(listStatus);
      if (listStatus !== 404 && listStatus !== 405) return failed(listError);
      known = "unknown"; // neither route is there: an endpoint without the models API
    }
  }
  if (known === "no") {
    return {
      verdict: "model-unknown",
      detail: `${where} does not list a model '${options.model}'`,
    };
  }
  if (options.provider === "openrouter") {
    // OpenRouter serves its model list to anyone: only its key route says whether the key works.
    try {
      await client.get("/key");
    } catch (error) {
      const status = statusOf(error);
      if (status === 401 || status === 403) return refused(status);
      if (status !== 404) return failed(error);
      return unconfirmed(where, "it has no key route to ask");
    }
  }
  if (known === "unknown") return unconfirmed(where, "it has no models route to ask");
  return { verdict: "ok", detail: `${where} accepted the key and knows '${options.model}'` };
}

function unconfirmed(where: string, why: string): ModelProbe {
  return {
    verdict: "unconfirmed",
    detail: `cannot confirm the key or the model at ${where}: ${why}`,
  };
}

/** Whether `GET models` lists `model`; throws the SDK's error when the list fails. */
async function listed(client: import("openai").default, model: string): Promise<"yes" | "no"> {
  for await (const entry of client.models.list()) {
    if (entry.id === model) return "yes";
  }
  return "no";
}

/** `GET /v1/models/<model>` through the anthropic SDK: the key and the model in one answer. */
async function probeAnthropic(options: ModelProbeOptions): Promise<ModelProbe> {
  let client: import("@anthropic-ai/sdk").default;
  try {
    const module = await withoutNodeGlobals(() => import("@anthropic-ai/sdk"));
    client = withoutNodeGlobals(() =>
      new module.default({
        apiKey: options.apiKey,
        baseURL: options.baseURL ?? ANTHROPIC_BASE_URL,
        maxRetries: 0,
        timeout: options.timeoutMs,
        openTelemetry: { traces: false, propagation: false },
        // The fetch path: under host rules the probe goes only where a wake's calls may.
        fetch: outboundFetch("model"),
      })
    );
  } catch (error) {
    return { verdict: "error", detail: `could not set up the anthropic SDK: ${reasonOf(error)}` };
  }
  const where = client.baseURL;
  try {
    await client.models.retrieve(options.model);
  } catch (error) {
    const status = statusOf(error);
    if (status === 401 || status === 403) {
      return { verdict: "key-refused", detail: `${where} refused the key with HTTP ${status}` };
    }
    if (status === 404) {
      return { verdict: "model-unknown", detail: `${where} has no model '${options.model}'` };
    }
    return status === undefined
      ? { verdict: "unreachable", detail: `${where} did not answer: ${reasonOf(error)}` }
      : { verdict: "error", detail: `${where} answered HTTP ${status}: ${reasonOf(error)}` };
  }
  return { verdict: "ok", detail: `${where} accepted the key and knows '${options.model}'` };
}
