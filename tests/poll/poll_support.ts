/**
 * Poll-mode fixtures on top of the wake e2e world (sandbox platform, scripted chat model, ada the
 * agent and bob her peer on one timeline): an agent built by `TimelineAgent.fromEnv` in-process,
 * with a memory journal, and helpers to lay down a backlog.
 */
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { TimelineAgent } from "../../lib/poll/mod.ts";
import type { Message as PlatformMessage } from "../../lib/platform/mod.ts";
import type { World } from "../e2e/wake_support.ts";
import { asUser } from "../support/cleared.ts";

export { chatMessages, say, scriptReply, waitFor, world } from "../e2e/wake_support.ts";

/** An agent for `w`, `extra` overriding the world's env; the journal keeps every line. */
export async function pollAgent(
  w: World,
  extra: Record<string, string> = {},
): Promise<{ agent: TimelineAgent; journal: MemoryJournal }> {
  const journal = new MemoryJournal();
  // In-process: narrowing would revoke `run` for the whole test runner.
  const agent = await TimelineAgent.fromEnv(w.timeline, { ...w.env, ...extra }, {
    journal,
    narrow: false,
  });
  return { agent, journal };
}

/** Posts `count` messages, every `ownEvery`-th one by the agent; resolves oldest first. */
export async function backlog(
  w: World,
  count: number,
  ownEvery = 0,
): Promise<PlatformMessage[]> {
  const posted: PlatformMessage[] = [];
  for (let i = 1; i <= count; i++) {
    const own = ownEvery > 0 && i % ownEvery === 0;
    const who = own ? w.agent : w.peer;
    posted.push(
      await who.client.messages.create(w.timeline, asUser("message", { body: `backlog ${i}` })),
    );
  }
  return posted;
}

/** The journal lines whose head (after the level) is `head`. */
export function linesOf(journal: MemoryJournal, head: string): string[] {
  return journal.lines.filter((line) => line.split(" ").slice(1).join(" ").startsWith(head));
}
