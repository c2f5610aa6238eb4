/**
 * Fixtures for the compaction tests: a provider that tells the summarize call (the compactor's
 * instruction as its system turn) from the agent's own calls, answering each from its own script
 * and recording both. It holds no tests, so importing it registers nothing twice.
 */
import { EXCERPT_HEADER, SUMMARIZE_INSTRUCTION } from "../../lib/core/compaction/compaction.ts";
import { Message } from "../../lib/core/types/message.ts";
import type { Provider } from "../../lib/core/types/provider.ts";
import type { ToolSpec } from "../../lib/core/types/tool.ts";
import type { Scripted } from "./engine_fixtures.ts";

/** What the summarizer answers with: text, a fault, or a function of the excerpt. */
export type SummaryScript = string | Error | ((excerpt: string) => string);

/** One summarize call: the excerpt it was given and whether tools were offered. */
export interface SummaryCall {
  readonly excerpt: string;
  readonly tools?: readonly ToolSpec[];
  readonly system: string;
}

/** Agent calls from `agent`, summarize calls from `summaries` (the last one repeats). */
export class SplitProvider implements Provider {
  readonly provider = "scripted";
  readonly model = "script-1";
  readonly agentCalls: Message[][] = [];
  readonly summaryCalls: SummaryCall[] = [];
  lastTokensIn?: number;
  #agent: Scripted[];
  #summaries: SummaryScript[];

  constructor(agent: Scripted[], summaries: SummaryScript[] = ["NOTES"]) {
    this.#agent = [...agent];
    this.#summaries = [...summaries];
  }

  supportsVision(): boolean {
    return true;
  }

  async chat(messages: readonly Message[], tools?: readonly ToolSpec[]): Promise<Message> {
    if (messages[0]?.content === SUMMARIZE_INSTRUCTION) {
      const user = messages[1]?.content ?? "";
      const excerpt = user.startsWith(EXCERPT_HEADER) ? user.slice(EXCERPT_HEADER.length) : user;
      this.summaryCalls.push({ excerpt, tools, system: messages[0].content ?? "" });
      const next = this.#summaries.length > 1 ? this.#summaries.shift()! : this.#summaries[0];
      if (next instanceof Error) throw next;
      const text = typeof next === "function" ? next(excerpt) : next;
      return Message.assistant({ content: text, usage: { tokensIn: 10, tokensOut: 5 } });
    }
    this.agentCalls.push(structuredClone([...messages]));
    const next = this.#agent.shift();
    if (next === undefined) throw new Error("agent script exhausted");
    if (next instanceof Error) throw next;
    if (typeof next === "function") return await next(messages, tools);
    return structuredClone(next);
  }
}

/** A small conversation: charter, then `turns` peer turns each answered in plain text. */
export function conversation(turns: number, bodyChars = 100): Message[] {
  const messages = [Message.system("charter")];
  for (let i = 1; i <= turns; i++) {
    messages.push(
      Message.user(`[t${i}] ann: ${"m".repeat(bodyChars)}`, { items: [`u${i}`] }),
      Message.assistant({ content: `reply ${i}` }),
    );
  }
  return messages;
}
