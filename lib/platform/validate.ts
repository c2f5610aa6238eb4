/**
 * The boundary check: a 2xx body either matches its schema or becomes a MalformedResponseError
 * naming the endpoint and the first offending field. Field values are never echoed, because a
 * response may hold a token.
 */
import type * as z from "../base/zod.ts";
import { MalformedResponseError } from "./errors.ts";

/** Renders a zod issue path as `items[3].content.uuid`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * For a union that matched no shape, the branch that got furthest names the real problem
 * (`items[2].content.body` rather than just `items[2]`).
 */
function deepest(
  issue: z.core.$ZodIssue,
  prefix: readonly PropertyKey[],
): { issue: z.core.$ZodIssue; path: PropertyKey[] } {
  const here = [...prefix, ...issue.path];
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return { issue, path: here };
  let best: { issue: z.core.$ZodIssue; path: PropertyKey[] } | undefined;
  for (const branch of issue.errors) {
    for (const sub of branch) {
      const candidate = deepest(sub, here);
      if (!best || candidate.path.length > best.path.length) best = candidate;
    }
  }
  return best ?? { issue, path: here };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type") {
    // Issues nested inside a union carry no input; their message still says what arrived.
    const missing = "input" in issue
      ? issue.input === undefined
      : /received undefined$/.test(issue.message);
    return missing ? "is missing" : `should be ${article(issue.expected)}`;
  }
  if (issue.code === "invalid_union") return "matches none of the accepted shapes";
  return issue.message.replace(/\.$/, "").toLowerCase();
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** Validates `body` against `schema`; throws MalformedResponseError on mismatch. */
export function parseResponse<T extends z.ZodType>(
  schema: T,
  body: unknown,
  endpoint: string,
  status?: number,
): z.output<T> {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const { issue, path } = first ? deepest(first, []) : { issue: undefined, path: [] };
  const field = formatPath(path);
  const where = field === "" ? "the response body" : `field "${field}"`;
  const why = issue ? describeIssue(issue) : "does not match the expected shape";
  return fail(
    `${endpoint} returned a malformed response: ${where} ${why}.`,
    endpoint,
    field,
    status,
  );
}

function fail(message: string, endpoint: string, field: string, status?: number): never {
  throw new MalformedResponseError(message, { endpoint, field: field || undefined, status });
}
