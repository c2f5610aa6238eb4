/**
 * What both wires of the demo model share: OpenAI-shaped errors (the SDK reads `body.error`,
 * not problem+json), bounded JSON parsing, deterministic ids, token estimates and the small
 * readers for loosely typed request JSON.
 */
import { isRecord } from "../../base/json_object.ts";

export { isRecord };
import { sha256Hex } from "../../base/sha256.ts";
import { readBody } from "../shared/http.ts";
import { Problem } from "../shared/problem.ts";

/** Request bodies the model accepts: whole conversations, so more than the API's JSON limit. */
export const MODEL_BODY_BYTES = 16 * 1024 * 1024;

/** `created`/`created_at` of every reply: fixed, so the same request gets the same bytes. */
export const DEMO_CREATED = 1_767_225_600; // 2026-01-01T00:00:00Z

/** Reported as `system_fingerprint`; constant because the model never changes. */
export const DEMO_FINGERPRINT = "fp_sandbox_demo";

/** A request the model refuses, answered in OpenAI's error shape. */
export class ModelRequestError extends Error {
  override name = "ModelRequestError";

  /**
   * @param status HTTP status.
   * @param message the sentence the SDK puts in its error message.
   * @param param the offending request field, when one is.
   * @param code OpenAI-style error code.
   * @param type OpenAI-style error type.
   */
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly type = "invalid_request_error",
  ) {
    super(message);
  }
}

/** `{error: {message, type, param, code}}` with the error's status. */
export function errorResponse(error: ModelRequestError): Response {
  return jsonResponse(error.status, {
    error: { message: error.message, type: error.type, param: error.param, code: error.code },
  });
}

/** A JSON response with the headers the SDK logs (a deterministic `x-request-id`). */
export function jsonResponse(status: number, body: unknown): Response {
  const text = JSON.stringify(body);
  return new Response(text, {
    status,
    headers: {
      "content-type": "application/json",
      "x-request-id": `req_${digest(text).slice(0, 24)}`,
    },
  });
}

/** The request body, at most {@link MODEL_BODY_BYTES}; a refusal is the vendor-shaped error. */
export async function readModelBody(req: Request): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await readBody(req, MODEL_BODY_BYTES);
  } catch (error) {
    if (error instanceof Problem) throw new ModelRequestError(error.status, error.detail);
    throw error;
  }
}

/**
 * Requires a bearer token (any value: the sandbox has no vendor accounts) and reads the body
 * as a JSON object.
 */
export async function readRequest(req: Request): Promise<Record<string, unknown>> {
  const auth = req.headers.get("authorization") ?? "";
  if (!/^Bearer \S+/i.test(auth)) {
    throw new ModelRequestError(
      401,
      "Missing bearer token: any AI_API_KEY works with the sandbox demo model.",
      null,
      "invalid_api_key",
      "invalid_request_error",
    );
  }
  const bytes = await readModelBody(req);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ModelRequestError(400, "The request body is not valid JSON.");
  }
  if (!isRecord(parsed)) throw new ModelRequestError(400, "The request body must be an object.");
  if (typeof parsed.model !== "string" || parsed.model === "") {
    throw new ModelRequestError(400, "you must provide a model parameter", "model");
  }
  return parsed;
}

/** Hex SHA-256 of `text`: the seed of every id, so ids follow the conversation. */
export function digest(text: string): string {
  return sha256Hex(text);
}

/** A token estimate: a quarter of the characters, rounded up, at least one. */
export function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

/** The records of an array, skipping anything else. */
export function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** A string field, or `""`. */
export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Text of a content field: a string, or the `text` of each part of a parts array. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return records(content).map((part) => str(part.text)).join("");
}

/** Tool-call arguments as the wire carries them: a JSON string (objects are serialised). */
export function argumentsText(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined ? "{}" : JSON.stringify(value);
}
