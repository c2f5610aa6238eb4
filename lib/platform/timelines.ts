/** Timelines: create, read (with items), list, delete, lock, and participants. */
import type { CallOptions, Transport } from "./http.ts";
import { fetchPage, type ListSpec, ownUuid, paginate } from "./lists.ts";
import type { ListOptions, Page, Paginator } from "./pagination.ts";
import {
  LockResponseSchema,
  type LockResult,
  ParticipationResponseSchema,
  type Timeline,
  TimelineSchema,
  type TimelineWithItems,
  TimelineWithItemsSchema,
  type User,
} from "./schemas.ts";

const LIST: ListSpec<typeof TimelineSchema> = {
  path: "/timelines",
  key: "timelines",
  item: TimelineSchema,
  idOf: ownUuid,
};

/** What `timelines.create` needs. */
export interface TimelineInput {
  /** The timeline's name (required by the platform). */
  readonly name: string;
}

/** `/timelines…`. */
export class TimelinesApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Creates a timeline you own (no Idempotency-Key: the platform does not honour one here). */
  create(input: TimelineInput, options: CallOptions = {}): Promise<TimelineWithItems> {
    return this.#t.json(
      { method: "POST", path: "/timelines", json: { timeline: { name: input.name } }, ...options },
      TimelineWithItemsSchema,
    );
  }

  /** A timeline and its inline items. 404 = unknown or deleted; 403 = not a viewer. */
  get(uuid: string, options: CallOptions = {}): Promise<TimelineWithItems> {
    return this.#t.json(
      { method: "GET", path: "/timelines/{uuid}", params: { uuid }, ...options },
      TimelineWithItemsSchema,
    );
  }

  /** Walks the timelines you own or share, newest first. */
  list(options: ListOptions = {}): Paginator<Timeline> {
    return paginate(this.#t, LIST, options);
  }

  /** One page of your timelines. */
  page(options: ListOptions = {}): Promise<Page<Timeline>> {
    return fetchPage(this.#t, LIST, options.before, options);
  }

  /** Deletes a timeline and everything in it (owner only). */
  delete(uuid: string, options: CallOptions = {}): Promise<void> {
    return this.#t.empty({
      method: "DELETE",
      path: "/timelines/{uuid}",
      params: { uuid },
      ...options,
    });
  }

  /** Locks a timeline against new content (any viewer; idempotent; one-way). */
  async lock(uuid: string, options: CallOptions = {}): Promise<LockResult> {
    const body = await this.#t.json(
      { method: "POST", path: "/timelines/{uuid}/lock", params: { uuid }, ...options },
      LockResponseSchema,
    );
    const timeline = body.timeline ?? null;
    return {
      uuid: timeline?.uuid ?? body.uuid ?? uuid,
      locked: timeline?.locked ?? body.locked ?? true,
      timeline,
    };
  }

  /** Adds a participant (owner only; needs mutual trust with every viewer). Returns the user. */
  addParticipant(uuid: string, userUuid: string, options: CallOptions = {}): Promise<User> {
    return this.#t.json(
      {
        method: "POST",
        path: "/timelines/{uuid}/participations",
        params: { uuid },
        json: { user_id: userUuid },
        ...options,
      },
      ParticipationResponseSchema,
    );
  }

  /** Removes a participant (owner only; idempotent). */
  removeParticipant(uuid: string, userUuid: string, options: CallOptions = {}): Promise<void> {
    return this.#t.empty({
      method: "DELETE",
      path: "/timelines/{uuid}/participations/{user}",
      params: { uuid, user: userUuid },
      ...options,
    });
  }
}
