/**
 * `tasks`: schedule work on a timeline and review it — create a task from instructions and an
 * activation time, list the tasks here, read one in full. See docs/tools.md#platform-tools.
 *
 * `activate_at` is `+<n><s|m|h|d|w>` from now or an ISO-8601 timestamp, normalised to one
 * absolute timestamp with an offset before it reaches the platform. Creates carry an
 * Idempotency-Key (kind `task`): if a killed wake's create already landed, its re-issue gets
 * the original task back instead of scheduling the work twice.
 */
import type * as z from "../base/zod.ts";
import type { JsonSchema, ToolContext } from "../core/types/tool.ts";
import type { Task } from "../platform/mod.ts";
import type { PlatformContext } from "./shared/platform_context.ts";
import { type Clock, normalizeActivateAt } from "./shared/activate_at.ts";
import {
  optionalText,
  present,
  type TextArgs,
  textArgs,
  type TextArgValues,
} from "./shared/args.ts";
import { renderList, takeCapped } from "./shared/lists.ts";
import { PlatformTool, targetTimeline } from "./shared/platform_tool.ts";
import { relay, unknownAction } from "./shared/relay.ts";
import { elide } from "./shared/text.ts";

const ACTIONS = ["create", "list", "read"] as const;
/** How much of a task's instructions a `list` line shows; `read` shows them all. */
const PREVIEW = 120;

const Args: TextArgs<"action" | "uuid" | "instructions" | "activate_at" | "timeline"> = textArgs({
  action: optionalText,
  uuid: optionalText,
  instructions: optionalText,
  activate_at: optionalText,
  timeline: optionalText,
});
/** The `tasks` tool's arguments once checked: what the tool acts on. */
export type TasksArgs = TextArgValues<
  "action" | "uuid" | "instructions" | "activate_at" | "timeline"
>;

/** Options for {@link TasksTool}. */
export interface TasksToolOptions {
  /** "Now" for relative `activate_at` offsets, in epoch ms (default `Date.now`). */
  readonly clock?: Clock;
}

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    action: { type: "string", enum: [...ACTIONS], description: "What to do." },
    uuid: { type: "string", description: "The task's uuid (read only). Get it from 'list'." },
    instructions: {
      type: "string",
      description: "What the task should do, in your own words (create only).",
    },
    activate_at: {
      type: "string",
      description: "When the task activates (create only). A relative offset from now like " +
        "'+90m', '+2h', '+1d' (units: s, m, h, d, w), or an absolute ISO-8601 timestamp like " +
        "'2026-06-10T15:00:00Z'.",
    },
    timeline: {
      type: "string",
      description: "Optional timeline uuid to act on instead of the current one. Omit to use " +
        "the timeline you are engaged on.",
    },
  },
  required: ["action"],
};

/** `uuid=<u> · status=<s> · activate_at=<t> — <instructions>`. */
function describeTask(task: Task, preview = false): string {
  const c = task.content;
  const instructions = preview ? elide(c.instructions, PREVIEW) : c.instructions;
  return `uuid=${c.uuid} · status=${c.status} · activate_at=${c.activate_at} — ${instructions}`;
}

/** Create, list and read scheduled tasks on a timeline. */
export class TasksTool extends PlatformTool<TasksArgs> {
  /** The name the model calls it by. */
  readonly name = "tasks";
  /** What it does, for the model. */
  readonly description: string =
    "Schedule and review work on the timeline. action='create' schedules a task from the " +
    "instructions you give and an activation time (activate_at); action='list' shows the " +
    "tasks here with their uuids, status, and activation time; action='read' returns one task " +
    "in full by uuid. activate_at takes a relative offset like '+90m', '+2h', or '+1d' " +
    "(seconds, minutes, hours, days, weeks — resolved from now), or an absolute ISO-8601 " +
    "timestamp like '2026-06-10T15:00:00Z'. Operations use the current timeline unless you " +
    "pass a timeline uuid.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = PARAMETERS;
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<TasksArgs> = Args;
  readonly #clock: Clock;

  /** Builds the tool, optionally bound; `options.clock` pins "now" for relative times. */
  constructor(context?: PlatformContext, options: TasksToolOptions = {}) {
    super(context);
    this.#clock = options.clock ?? Date.now;
  }

  /** Dispatches on the checked arguments; every outcome is a text for the model. */
  protected async act(
    context: PlatformContext,
    args: TasksArgs,
    call: ToolContext | undefined,
    raw?: unknown,
  ): Promise<string> {
    const target = targetTimeline(context, args.timeline);
    switch (args.action) {
      case "create": {
        const key = call ? await context.idempotencyKey("task", call.callId) : undefined;
        if (!present(args.instructions) || !present(args.activate_at)) {
          return "Error: 'create' needs both 'instructions' and 'activate_at'.";
        }
        const { instructions, activate_at: when } = args;
        return await relay(
          "create the task",
          async () => {
            const activateAt = normalizeActivateAt(when, this.#clock);
            const cleared = await context.gate.clear({
              surface: "task",
              timeline: target,
              fields: { instructions, activateAt },
            });
            const task = await context.client.tasks.create(target, cleared, {
              idempotencyKey: key,
              signal: call?.signal,
            });
            context.recordAct("task");
            return `Scheduled a task. ${describeTask(task)}`;
          },
          { context, timeline: target, what: "task" },
          { call, args: raw },
        );
      }
      case "list":
        return await relay("list the tasks", async () => {
          const capped = await takeCapped(context.client.tasks.list({ timeline: target }));
          return renderList(capped, (t) => describeTask(t, true), {
            title: "Tasks on this timeline (newest first):",
            empty: "No tasks on this timeline yet.",
          });
        });
      case "read": {
        if (!present(args.uuid)) {
          return "Error: 'read' needs the task's uuid. Use 'list' to find it.";
        }
        const uuid = args.uuid;
        return await relay("read the task", async () => {
          const c = (await context.client.tasks.get(uuid)).content;
          return `uuid=${c.uuid} · status=${c.status} · activate_at=${c.activate_at}\n\n${c.instructions}`;
        });
      }
      default:
        return unknownAction(args.action, ACTIONS);
    }
  }
}
