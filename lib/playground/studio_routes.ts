/**
 * The studio's routes (docs/playground.md#the-studios-routes), behind the checks of
 * ./page_routes.ts: reads answer with what the {@link Studio} builds, writes (already checked to
 * come from the page, with its token) parse their JSON body with zod and refuse anything else in
 * one line the page shows. Each answers `null` for a path it does not own.
 */
import * as z from "../base/zod.ts";
import { isUuid } from "../base/uuid.ts";
import { editable } from "./drafts.ts";
import { json, jsonBody, Refusal } from "./http.ts";
import type { PageContext } from "./page_context.ts";
import { olderQuery, pageLimit } from "./wake_window.ts";
import { itemsBefore } from "./views.ts";

/** The most turns one replay takes. */
export const MAX_REPLAY_TURNS = 20;

const WAKE = /^\/api\/wakes\/([A-Za-z0-9-]{1,64})(\/context|\/summary)?$/;

const DraftBody = z.object({ path: z.string().min(1).max(200), text: z.string().max(200_000) });
const ReplayBody = z.object({
  timeline: z.string().min(1),
  last: z.number().int().min(1).max(MAX_REPLAY_TURNS),
});
const ToolBody = z.object({
  timeline: z.string().min(1),
  name: z.string().min(1).max(64),
  arguments: z.record(z.string(), z.unknown()),
});
const SeatBody = z.object({
  handle: z.string().min(1).max(40),
  name: z.string().trim().min(1).max(80),
});

/** Answers a studio read, or null when `url` is not one. */
export async function studioRead(url: URL, ctx: PageContext): Promise<Response | null> {
  const { studio } = ctx;
  const wake = url.pathname.match(WAKE);
  if (wake) {
    const found = wake[2] === "/context"
      ? await studio.context(wake[1])
      : wake[2] === "/summary"
      ? studio.summaryOf(wake[1])
      : await studio.details(wake[1]);
    if (found === null) throw new Refusal(404, `No wake ${wake[1]}.`);
    return json(found);
  }
  const timeline = () => timelineParam(url, ctx);
  switch (url.pathname) {
    case "/api/wakes": {
      const query = olderQuery(url.searchParams, studio.wakeCount);
      if ("problem" in query) throw new Refusal(400, query.problem);
      return json(studio.summariesBefore(query.before, query.limit));
    }
    case "/api/items": {
      const before = url.searchParams.get("before") ?? "";
      if (!isUuid(before)) throw new Refusal(400, "before must be the uuid of an item shown.");
      const limit = pageLimit(url.searchParams.get("limit"));
      if (typeof limit === "string") throw new Refusal(400, limit);
      const page = await itemsBefore(ctx.world.human.client, timeline(), before, limit);
      if (!page) throw new Refusal(404, `No item ${before} on that timeline.`);
      return json(page);
    }
    case "/api/drafts":
      return json({ dir: studio.draft().dir, files: await studio.draft().files() });
    case "/api/notes":
      return json({ notes: await studio.notes(timeline()) });
    case "/api/memory": {
      const query = (url.searchParams.get("q") ?? "").trim();
      if (!query) throw new Refusal(400, "Type something to search for.");
      return json(await studio.memory(timeline(), query.slice(0, 2000)));
    }
    case "/api/tools":
      return json({ tools: await studio.tools(timeline()) });
  }
  return null;
}

/** Answers a studio write, or null when `path` is not one. */
export async function studioWrite(
  path: string,
  req: Request,
  ctx: PageContext,
): Promise<Response | null> {
  const { studio } = ctx;
  switch (path) {
    case "/api/drafts": {
      const input = DraftBody.safeParse(await jsonBody(req));
      if (!input.success) throw new Refusal(400, "Send {path, text}.");
      if (!editable(input.data.path)) {
        throw new Refusal(400, `${input.data.path} is not a file the studio edits.`);
      }
      await studio.draft().save(input.data.path, input.data.text);
      return json({ saved: input.data.path });
    }
    case "/api/drafts/reset":
      await studio.draft().reset();
      return json({ files: await studio.draft().files() });
    case "/api/replay": {
      const input = ReplayBody.safeParse(await jsonBody(req));
      if (!input.success) {
        throw new Refusal(400, `Send {timeline, last} with last from 1 to ${MAX_REPLAY_TURNS}.`);
      }
      uuidTimeline(input.data.timeline);
      return json(await studio.replay(input.data.timeline, input.data.last));
    }
    case "/api/tools/run": {
      const input = ToolBody.safeParse(await jsonBody(req));
      if (!input.success) {
        throw new Refusal(400, "Send {timeline, name, arguments} with arguments as a JSON object.");
      }
      uuidTimeline(input.data.timeline);
      const run = await studio.runTool(input.data.timeline, input.data.name, input.data.arguments);
      // A post the tool made changes the timeline.
      ctx.hub.changed({ timelines: true });
      return json(run);
    }
    case "/api/seats": {
      const input = SeatBody.safeParse(await jsonBody(req));
      if (!input.success) throw new Refusal(400, "Send {handle, name}.");
      const seat = await studio.addSeat(input.data.handle, input.data.name);
      ctx.hub.changed({ timelines: true });
      return json(seat, 201);
    }
  }
  return null;
}

/** The `timeline` query parameter: one the page shows. */
function timelineParam(url: URL, ctx: PageContext): string {
  const timeline = url.searchParams.get("timeline") ?? ctx.world.timeline.uuid;
  uuidTimeline(timeline);
  return timeline;
}

/** Refuses a timeline that is not a uuid (it names files under the agent's home). */
function uuidTimeline(timeline: string): void {
  if (!isUuid(timeline)) {
    throw new Refusal(400, "timeline must be a timeline's uuid.");
  }
}
