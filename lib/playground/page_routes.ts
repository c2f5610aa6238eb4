/**
 * The page server's routes and the checks every request passes first (docs/playground.md#safety):
 *
 * - the `Host` names the page (no DNS rebinding);
 * - a request body is bounded before it is read (413: a declared length at once, a chunked body
 *   where it crosses the limit);
 * - a write comes from the page itself: same origin (`Origin`, `Sec-Fetch-Site`), this run's page
 *   token in the {@link PAGE_TOKEN_HEADER} header, and a JSON or multipart body as the route
 *   expects, none of which a cross-site "simple" request can send;
 * - an uploaded file is served by the user-content rule: raster images inline, everything else as
 *   a download, never a document that runs in the page's origin.
 *
 * Every text response is built here and scrubbed of secrets; asset bytes are relayed.
 */
import { errorMessage } from "../base/error_text.ts";
import type { Gate } from "../gate/mod.ts";
import { GateRefusal, GuardrailsError } from "../gate/mod.ts";
import * as z from "../base/zod.ts";
import { PayloadTooLargeError } from "../platform/mod.ts";
import {
  BodyTooLargeError,
  crossSiteRefusal,
  hostRefusal,
  limitBody,
  Problem,
  userContentHeaders,
} from "../sandbox/mod.ts";
import { STATIC_FILES } from "./static/mod.ts";
import { json, jsonBody, mediaType, Refusal, SECURITY_HEADERS, text } from "./http.ts";
import { DraftError } from "./drafts.ts";
import { ConfigError } from "../config/errors.ts";
import { studioRead, studioWrite } from "./studio_routes.ts";
import type { PageContext } from "./page_context.ts";

export type { PageContext };

/** The header the page sends its token in, on every write. */
export const PAGE_TOKEN_HEADER = "playground-token";

/** The ceiling of every body but an upload's: a message or a task (20,000 characters), as JSON. */
export const JSON_BODY_BYTES = 256 * 1024;

/** What an upload's form may add to the file itself (boundaries, the timeline, a description). */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** A new page token: `pgt_` and 32 hex digits (128 random bits). */
export function newPageToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `pgt_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** `as`: the human seat to act as (default: the first, @ada). */
const Seat = z.string().min(1).max(64).optional();
const PostBody = z.object({
  timeline: z.string().min(1),
  body: z.string().min(1).max(20_000),
  as: Seat,
});
const TaskBody = z.object({
  timeline: z.string().min(1),
  instructions: z.string().min(1).max(20_000),
  minutes: z.number().int().min(1).max(525_600),
  as: Seat,
});

/** Answers one request to the page server. */
export async function handlePage(req: Request, ctx: PageContext): Promise<Response> {
  const url = new URL(req.url);
  try {
    const wrongHost = hostRefusal(req, ctx.hosts);
    if (wrongHost) throw new Refusal(403, wrongHost);
    const bounded = limitBody(req, bodyLimit(url.pathname, ctx));
    if (req.method === "GET") return await studioRead(url, ctx) ?? await read(url.pathname, ctx);
    if (req.method !== "POST") throw new Refusal(405, `${req.method} is not allowed here.`);
    fromThePage(req, ctx);
    const studio = await studioWrite(url.pathname, bounded, ctx);
    if (studio) return studio;
    const response = await write(url.pathname, bounded, ctx);
    ctx.hub.changed({ timelines: true });
    return response;
  } catch (error) {
    if (error instanceof Refusal) return json({ error: error.message }, error.status);
    if (error instanceof BodyTooLargeError) return json({ error: error.message }, 413);
    if (error instanceof PayloadTooLargeError) {
      return json({ error: "The platform refused the file: it is too large." }, 413);
    }
    if (error instanceof Problem) {
      return json({ error: `The platform refused: ${error.detail}` }, error.status);
    }
    if (error instanceof GateRefusal) {
      return json({ error: `The outbound gate refused the post (check: ${error.check}).` }, 422);
    }
    if (error instanceof DraftError) return json({ error: error.message }, 409);
    if (error instanceof ConfigError || error instanceof GuardrailsError) {
      return json({ error: `The agent's configuration does not load: ${error.message}` }, 409);
    }
    return json({ error: errorMessage(error) }, 502);
  }
}

/** An upload may be as large as the platform takes; every other body is small JSON. */
function bodyLimit(path: string, ctx: PageContext): number {
  return path === "/api/upload"
    ? ctx.sandbox.limits.multipartBytes + FORM_OVERHEAD_BYTES
    : JSON_BODY_BYTES;
}

async function read(path: string, ctx: PageContext): Promise<Response> {
  if (path === "/") {
    // The page carries its token, which only a same-origin script can read back.
    const page = STATIC_FILES["/"];
    return text(page.body.replace(TOKEN_SLOT, tokenMeta(ctx.pageToken)), page.type);
  }
  const file = STATIC_FILES[path];
  if (file) return text(file.body, file.type);
  if (path === "/api/state") return text(await ctx.hub.json(), "application/json; charset=utf-8");
  if (path === "/api/events") {
    return new Response(ctx.hub.stream(), {
      headers: { ...SECURITY_HEADERS, "content-type": "text/event-stream" },
    });
  }
  const asset = path.match(/^\/api\/assets\/([0-9a-f-]{36})$/);
  if (asset) {
    const found = await ctx.world.human.client.assets.get(asset[1]);
    const blob = await ctx.world.human.client.assets.download(found);
    const file = found.content.file;
    const headers = userContentHeaders(
      file?.content_type ?? "application/octet-stream",
      file?.filename ?? "download",
    );
    headers.set("referrer-policy", "no-referrer");
    return new Response(blob.bytes as Uint8Array<ArrayBuffer>, { headers });
  }
  throw new Refusal(404, `Nothing at ${path}.`);
}

/** The empty token tag in the embedded page, filled in per run. */
const TOKEN_SLOT = '<meta name="playground-token" content="">';

function tokenMeta(token: string): string {
  return `<meta name="playground-token" content="${token}">`;
}

/**
 * Writes come only from the page itself: not from another origin (the browser always says so on
 * a cross-origin POST), and with the token the page was served with.
 */
function fromThePage(req: Request, ctx: PageContext): void {
  if (crossSiteRefusal(req)) {
    throw new Refusal(403, "Writes are accepted from the playground's own page only.");
  }
  if (req.headers.get(PAGE_TOKEN_HEADER) !== ctx.pageToken) {
    throw new Refusal(
      403,
      "Writes need this page's token (the playground restarted since the page was loaded?): " +
        "reload the page.",
    );
  }
}

async function write(path: string, req: Request, ctx: PageContext): Promise<Response> {
  if (path === "/api/post") {
    const input = PostBody.safeParse(await jsonBody(req));
    if (!input.success) throw new Refusal(400, "Send {timeline, body} with a non-empty body.");
    const { timeline, body } = input.data;
    const message = await gateOf(ctx, input.data.as).post({ timeline, body, kind: "tool" });
    return json({ uuid: message.content.uuid }, 201);
  }
  if (path === "/api/upload") {
    const form = await formBody(req);
    const file = form?.get("file");
    const timeline = form?.get("timeline");
    if (!(file instanceof File) || typeof timeline !== "string" || file.size === 0) {
      throw new Refusal(400, "Choose a file to upload.");
    }
    const description = form?.get("description");
    const as = form?.get("as");
    const handle = typeof as === "string" ? as : undefined;
    // The person's words pass the same gate as their posts (the seat's gate, its own token).
    const cleared = await gateOf(ctx, handle).clear({
      surface: "asset",
      timeline,
      fields: {
        file: new Uint8Array(await file.arrayBuffer()),
        filename: file.name || "upload",
        contentType: file.type || undefined,
        description: typeof description === "string" && description.trim()
          ? description
          : undefined,
      },
    });
    const asset = await seatOf(ctx, handle).client.assets.create(timeline, cleared);
    return json({ uuid: asset.content.uuid }, 201);
  }
  if (path === "/api/tasks") {
    const input = TaskBody.safeParse(await jsonBody(req));
    if (!input.success) throw new Refusal(400, "Send {timeline, instructions, minutes}.");
    const { timeline, instructions, minutes } = input.data;
    const cleared = await gateOf(ctx, input.data.as).clear({
      surface: "task",
      timeline,
      fields: { instructions, activateAt: new Date(Date.now() + minutes * 60_000) },
    });
    const task = await seatOf(ctx, input.data.as).client.tasks.create(timeline, cleared);
    return json({ uuid: task.content.uuid }, 201);
  }
  const activate = path.match(/^\/api\/tasks\/([0-9a-f-]{36})\/activate$/);
  if (activate) {
    ctx.sandbox.activateTask(activate[1]);
    return json({ activated: activate[1] });
  }
  throw new Refusal(404, `Nothing at ${path}.`);
}

/** The body as a multipart form, or null when it does not parse; any other body is refused. */
async function formBody(req: Request): Promise<FormData | null> {
  if (mediaType(req) !== "multipart/form-data") {
    throw new Refusal(415, "Send the file as multipart/form-data.");
  }
  try {
    return await req.formData();
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    return null;
  }
}

/** The human seat `handle` (the first one when absent); a handle not seated is refused. */
function seatOf(ctx: PageContext, handle: string | undefined) {
  const seat = handle === undefined
    ? ctx.world.human
    : ctx.world.humans.find((s) => s.handle === handle);
  if (!seat) throw new Refusal(400, `@${handle} has no seat here: add the seat first.`);
  return seat;
}

/** The outbound gate of the human seat `handle` (the first one when absent). */
function gateOf(ctx: PageContext, handle: string | undefined): Gate {
  return ctx.gate(seatOf(ctx, handle).handle)!;
}
