// Talking to the playground's server: reads, and writes that carry this run's page token
// (docs/playground.md#safety). Every answer the server refuses comes back as one line.

/** This run's write token, which the server wrote into the page. */
const PAGE_TOKEN = document.querySelector('meta[name="playground-token"]')?.content ?? "";

/** A refusal or failure, with the server's one line. */
export class ApiError extends Error {}

/** GET `path` as JSON. */
export async function get(path) {
  const reply = await fetch(path);
  const answer = await reply.json().catch(() => ({}));
  if (!reply.ok) throw new ApiError(answer.error ?? `HTTP ${reply.status}`);
  return answer;
}

/** POST `body` (JSON, FormData or null) to `path`; resolves to the answer, throws an ApiError. */
export async function post(path, body) {
  const init = { method: "POST", headers: { "playground-token": PAGE_TOKEN } };
  if (body instanceof FormData) init.body = body;
  else if (body !== null) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  let reply;
  try {
    reply = await fetch(path, init);
  } catch (error) {
    throw new ApiError(`Could not reach the playground: ${error.message}`);
  }
  const answer = await reply.json().catch(() => ({}));
  if (!reply.ok) throw new ApiError(`Refused: ${answer.error ?? reply.status}`);
  return answer;
}

/** Sets the text of the live status line `id`. */
export function say(id, text) {
  const el = document.getElementById(id);
  if (el) el.textContent = text;
}
