/**
 * The rig the replay e2e tests share: scripting a wire-mocked model step by step (tool calls, a
 * closing text, a refusal), reading a world's one turn record, and running `harness replay`
 * through the real openai SDK against another wire mock.
 */
import assert from "node:assert/strict";
import { chatCompletion, type ModelMock } from "../support/model_mock.ts";
import { type CliResult, runCli } from "../support/run_cli.ts";
import type { World } from "./wake_support.ts";

/** One scripted model response per step: a tool call, or a closing text. */
export type Step = { name: string; arguments: Record<string, unknown> } | { content: string };

/** Queues `steps` on `model`'s chat wire, one response each. */
export function script(model: ModelMock, steps: readonly Step[]): void {
  model.reply(
    "chat",
    ...steps.map((step, i) => ({
      json: "content" in step
        ? chatCompletion({ content: step.content })
        : chatCompletion({ toolCalls: [{ id: `c${i}`, ...step }] }),
    })),
  );
}

/** Queues a chat refusal on `model`. */
export function refuse(model: ModelMock): void {
  const body = chatCompletion({ content: null });
  const [choice] = body.choices as { message: Record<string, unknown> }[];
  choice.message.refusal = "I can't help with that.";
  model.reply("chat", { json: body });
}

/** The world's one turn record. */
export async function onlyRecord(w: World): Promise<Record<string, unknown>> {
  const lines = (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim()
    .split("\n");
  assert.equal(lines.length, 1);
  return JSON.parse(lines[0]);
}

/** `harness replay ...args` of the world's turns against `other`, over the chat surface. */
export function replayAgainst(
  w: World,
  other: ModelMock,
  args: readonly string[] = [],
): Promise<CliResult> {
  return runCli([
    "replay",
    "--model",
    "other-model",
    "--base-url",
    other.baseURL,
    "--surface",
    "chat",
    ...args,
  ], { env: { ...w.env, AI_API_KEY: "sk-replay-0000000000" } });
}
