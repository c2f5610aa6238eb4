/** Tasks: schedule (replay-protected), list by timeline/status, read, cancel. */
import * as z from "../base/zod.ts";
import { type CallOptions, type CreateOptions, type Transport } from "./http.ts";
import { contentUuid, fetchPage, type ListSpec, paginate } from "./lists.ts";
import type { ListOptions, Page, Paginator } from "./pagination.ts";
import { type Task, TaskSchema } from "./schemas.ts";
import { clearedFields, type ClearedText } from "./cleared.ts";

const Envelope = z.object({ task: TaskSchema });

/** Filters for listing tasks. */
export interface TaskListOptions extends ListOptions {
  /** Only this timeline's tasks. */
  readonly timeline?: string;
  /** Only tasks in this status (pending, activated, blocked_timeline_locked, cancelled). */
  readonly status?: string;
}

function spec(options: TaskListOptions): ListSpec<typeof TaskSchema> {
  return {
    path: "/tasks",
    key: "tasks",
    item: TaskSchema,
    idOf: contentUuid,
    query: { timeline: options.timeline, status: options.status },
  };
}

/** `/tasks` and `POST /timelines/{uuid}/tasks`. */
export class TasksApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /**
   * Schedules a task whose instructions the outbound gate cleared. With `idempotencyKey`, a
   * replay returns the original task.
   */
  async create(
    timeline: string,
    task: ClearedText<"task">,
    options: CreateOptions = {},
  ): Promise<Task> {
    const input = clearedFields(task, "task");
    const activateAt = input.activateAt instanceof Date
      ? input.activateAt.toISOString()
      : input.activateAt;
    const body = await this.#t.json({
      method: "POST",
      path: "/timelines/{uuid}/tasks",
      params: { uuid: timeline },
      json: { task: { instructions: input.instructions, activate_at: activateAt } },
      ...options,
    }, Envelope);
    return body.task;
  }

  /** Walks tasks newest first; `timeline` and `status` filters compose. */
  list(options: TaskListOptions = {}): Paginator<Task> {
    return paginate(this.#t, spec(options), options);
  }

  /** One page of tasks. */
  page(options: TaskListOptions = {}): Promise<Page<Task>> {
    return fetchPage(this.#t, spec(options), options.before, options);
  }

  /** One task by its `content.uuid`. */
  async get(uuid: string, options: CallOptions = {}): Promise<Task> {
    const body = await this.#t.json(
      { method: "GET", path: "/tasks/{uuid}", params: { uuid }, ...options },
      Envelope,
    );
    return body.task;
  }

  /** Cancels a pending task you wrote (409 when it is no longer pending). */
  async cancel(uuid: string, options: CallOptions = {}): Promise<Task> {
    const body = await this.#t.json(
      { method: "POST", path: "/tasks/{uuid}/cancellation", params: { uuid }, ...options },
      Envelope,
    );
    return body.task;
  }
}
