/**
 * A realistic long transcript for the bench and the large fixed-point test: 10,000 messages of
 * peer turns, step counters, tool-calling turns with results of mixed sizes (some over the cap),
 * non-ASCII text and a few interrupted calls.
 */
import { Message, type ToolCall } from "../../lib/core/types/message.ts";

/**
 * Deterministic PRNG (mulberry32), so every run measures the same transcript; the memory bench
 * draws its corpus from it too.
 */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "the",
  "timeline",
  "asset",
  "report",
  "会議",
  "できました",
  "🎉",
  "ok",
  "déjà",
  "vu",
];

function prose(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
}

/** About `count` messages (exactly `count`, truncated at a turn boundary is not guaranteed). */
export function largeTranscript(count = 10_000, seed = 1): Message[] {
  const random = prng(seed);
  const messages: Message[] = [Message.system("You are Ada, an agent on BaseCradle.")];
  let turn = 0;
  while (messages.length < count) {
    turn++;
    messages.push(
      Message.user(`[2026-08-18 12:00:00] @kenji: ${prose(random, 30)}`, {
        items: [`item-${turn}`],
      }),
    );
    const steps = 1 + Math.floor(random() * 3);
    for (let s = 1; s <= steps; s++) {
      messages.push(Message.system(`Current Time: 2026-08-18 12:00:0${s} UTC\n\nStep ${s} of 24.`));
      const calls: ToolCall[] = Array.from({ length: 1 + Math.floor(random() * 2) }, (_, c) => ({
        id: `call_${c}`,
        name: random() < 0.5 ? "messages" : "web_fetch",
        arguments: random() < 0.5
          ? { action: "create", timeline: "5f0c1a2e", body: prose(random, 60), ratio: 1.5 }
          : { url: `https://example.org/${turn}/${s}`, limit: 20 },
      }));
      messages.push(Message.assistant({ toolCalls: calls }));
      for (const call of calls) {
        const big = random() < 0.05;
        messages.push(Message.tool(call.id, prose(random, big ? 3000 : 40)));
      }
    }
    messages.push(Message.assistant({ content: prose(random, 25) }));
  }
  // A killed wake at the very end: a call with no result, healed on load.
  messages.push(
    Message.assistant({
      toolCalls: [{ id: "call_9", name: "tasks", arguments: { action: "create", title: "later" } }],
    }),
  );
  return messages;
}
