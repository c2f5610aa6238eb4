/**
 * RFC 9457 problem documents, the only error shape the platform speaks. Handlers throw a
 * `Problem`; the server renders it, so no code path can answer an error without a `code`.
 */
import { uuid7 } from "./uuid7.ts";

/** Attribute → messages, as carried by `422 validation_failed`. */
export type FieldErrors = Record<string, string[]>;

/** Titles that are not simply the code in Title Case. */
const TITLES: Record<string, string> = {
  not_an_admin: "Admin Action Required",
  payload_too_large: "Payload Too Large",
};

/** An error the client sees as `application/problem+json`. */
export class Problem extends Error {
  /** Names the error class in messages and logs. */
  override name = "Problem";

  /**
   * A problem answered with `status`; `code` and `detail` become the problem+json body.
   *
   * @param status HTTP status.
   * @param code stable machine-readable code (e.g. `not_a_viewer`).
   * @param detail the human sentence clients relay.
   * @param errors field errors (422 only).
   * @param headers extra response headers (e.g. `Retry-After`).
   */
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

/** A `422 validation_failed` carrying `errors`. */
export function validationFailed(errors: FieldErrors, detail?: string): Problem {
  const first = Object.entries(errors)[0];
  const sentence = detail ??
    (first ? `${humanise(first[0])} ${first[1][0] ?? "is invalid"}.` : "Validation failed.");
  return new Problem(422, "validation_failed", sentence, errors);
}

/** `404 not_found`, the answer for unknown, deleted and hidden records alike. */
export function notFound(what = "record"): Problem {
  return new Problem(404, "not_found", `The ${what} was not found.`);
}

/** Renders a problem as the response the client sees. */
export function problemResponse(problem: Problem): Response {
  const body: Record<string, unknown> = {
    type: `https://basecradle.com/docs/api#error-${problem.code}`,
    title: TITLES[problem.code] ?? titleCase(problem.code),
    status: problem.status,
    code: problem.code,
    detail: problem.detail,
    instance: uuid7(),
  };
  if (problem.errors) body.errors = problem.errors;
  return new Response(JSON.stringify(body), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", ...problem.headers },
  });
}

function titleCase(code: string): string {
  return code.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

function humanise(attribute: string): string {
  const words = attribute.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
