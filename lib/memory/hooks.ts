/**
 * Calling a provider's surfaces safely. Memory is a side channel: a backend hiccup may cost
 * the recalled section of a brief or one observation, never the turn. Failures become the
 * reference's WARNING lines (monitors match their text); successes a DEBUG `memory` line.
 */
import { namedError } from "../base/error_text.ts";
import type { Tool } from "../core/types/tool.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import type { MemoryExchange, MemoryProvider, MemoryScope } from "./provider.ts";
import { codePointLength } from "../base/code_points.ts";

/** Logged when `observe` throws. */
export const OBSERVE_FAILED = "Memory provider observe() failed; continuing.";
/** Logged when `context` throws or returns something that is not text. */
export const CONTEXT_FAILED = "Memory provider context() failed; omitting recalled memory.";

/** The provider's tools, or none when it has no tool surface. */
export function memoryTools(provider: MemoryProvider): Tool[] {
  return provider.tools?.() ?? [];
}

/**
 * Hands an exchange to `provider.observe`, if it has one. Never throws: a failure is a
 * WARNING (plus the stack at DEBUG) and the turn carries on.
 */
export async function observeMemory(
  provider: MemoryProvider,
  exchange: MemoryExchange,
  journal: Journal = silentJournal,
): Promise<void> {
  if (!provider.observe) return;
  try {
    await provider.observe(exchange);
  } catch (error) {
    logFailure(journal, OBSERVE_FAILED, error);
    return;
  }
  journal.event("DEBUG", "memory", {
    op: "observe",
    chars: codePointLength(exchange.user) + codePointLength(exchange.assistant),
  });
}

/**
 * Asks `provider.context` for text to inject at turn 0. Returns `null` when there is no hook,
 * nothing to inject, or the hook failed (logged as a WARNING); never throws.
 */
export async function recallMemory(
  provider: MemoryProvider,
  scope: MemoryScope,
  journal: Journal = silentJournal,
): Promise<string | null> {
  if (!provider.context) return null;
  let recalled: unknown;
  try {
    recalled = await provider.context(scope);
  } catch (error) {
    logFailure(journal, CONTEXT_FAILED, error);
    return null;
  }
  if (recalled != null && typeof recalled !== "string") {
    // A custom provider returning an object would otherwise be spliced into the brief.
    logFailure(journal, CONTEXT_FAILED, new TypeError(`context() returned ${typeof recalled}`));
    return null;
  }
  const text = recalled ?? "";
  journal.event("DEBUG", "memory", { op: "recall", chars: codePointLength(text) });
  return text.trim() ? text : null;
}

/** Closes a provider; a failure is logged, never thrown (closing happens on the way out). */
export async function closeMemoryProvider(
  provider: MemoryProvider,
  journal: Journal = silentJournal,
): Promise<void> {
  try {
    await provider.close?.();
  } catch (error) {
    logFailure(journal, "Memory provider close() failed; continuing.", error);
  }
}

/** The WARNING line with the error's one-line summary, and its stack at DEBUG. */
function logFailure(journal: Journal, message: string, error: unknown): void {
  const summary = namedError(error);
  journal.text("WARNING", `${message} (${summary})`);
  if (error instanceof Error && error.stack && journal.enabled("DEBUG")) {
    journal.text("DEBUG", error.stack);
  }
}
