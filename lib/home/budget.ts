/**
 * The budget guard's state under HARNESS_HOME (docs/home-layout.md#budget-files):
 * `budget/<YYYY-MM-DD>.jsonl`, one line appended per engaged turn of any timeline that UTC day
 * (`{"timeline","tokens","usd"}`; one `O_APPEND` write per line, so concurrent wakes never tear or
 * lose one another's lines), and `budget/exhausted`, present while a limit holds (written
 * atomically), so the WARNING, the INFO and the escalation notice come once per transition.
 */
import { atomicWrite } from "../base/atomic_write.ts";
import { join } from "../base/paths.ts";

/** `$HARNESS_HOME/budget`. */
export function budgetDir(home: string): string {
  return join(home, "budget");
}

/** The UTC day of `now`, `YYYY-MM-DD`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** One day's spend. */
export interface Spend {
  readonly usd: number;
  readonly tokens: number;
}

/** Appends one turn's spend to `day`'s ledger. */
export async function chargeDay(
  home: string,
  day: string,
  entry: { readonly timeline: string; readonly usd: number; readonly tokens: number },
): Promise<void> {
  await Deno.mkdir(budgetDir(home), { recursive: true });
  const line = `${JSON.stringify(entry)}\n`;
  await Deno.writeTextFile(join(budgetDir(home), `${day}.jsonl`), line, { append: true });
}

/** `day`'s spend so far; a line that does not parse counts as nothing. */
export async function daySpend(home: string, day: string): Promise<Spend> {
  let text = "";
  try {
    text = await Deno.readTextFile(join(budgetDir(home), `${day}.jsonl`));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  let usd = 0;
  let tokens = 0;
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const entry = JSON.parse(line) as { usd?: unknown; tokens?: unknown };
      if (typeof entry.usd === "number" && Number.isFinite(entry.usd)) usd += entry.usd;
      if (typeof entry.tokens === "number" && Number.isFinite(entry.tokens)) tokens += entry.tokens;
    } catch {
      // A torn line from a killed write: nothing to count.
    }
  }
  return { usd: Math.round(usd * 1e9) / 1e9, tokens };
}

const exhaustedPath = (home: string) => join(budgetDir(home), "exhausted");

/** The limit the marker names, when a limit is currently holding. */
export async function exhaustedMark(home: string): Promise<string | undefined> {
  try {
    return (await Deno.readTextFile(exhaustedPath(home))).trim() || "unknown";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Marks a limit as holding (`limit`: which one, and on which day). */
export async function markExhausted(home: string, limit: string): Promise<void> {
  await atomicWrite(exhaustedPath(home), `${limit}\n`);
}

/** Clears the marker; a missing one is fine. */
export async function clearExhausted(home: string): Promise<void> {
  try {
    await Deno.remove(exhaustedPath(home));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}
