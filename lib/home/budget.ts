/**
 * The budget guard's state under HARNESS_HOME (docs/home-layout.md#budget-files):
 * `budget/<YYYY-MM-DD>.jsonl`, one line appended per engaged turn of any timeline that UTC day
 * (`{"timeline","tokens","usd"}`; one `O_APPEND` write per line, so concurrent wakes never tear or
 * lose one another's lines); `budget/exhausted`, present while a limit holds, created exclusively
 * so that of several wakes finding the same limit holding exactly one logs the transition; and
 * `budget/notices/<limit>-<day>`, created exclusively by the one wake that sends that day's
 * notice for that limit. The reservations of turns in flight are lib/home/budget_leases.ts.
 *
 * The files are this runtime's own: the Python harness has no budget guard and ignores them.
 */
import { dirname, join } from "../base/paths.ts";
import { quote } from "../pycompat/quote.ts";

/** `$HARNESS_HOME/budget`. */
export function budgetDir(home: string): string {
  return join(home, "budget");
}

/** The UTC day of `now`, `YYYY-MM-DD`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The UTC day before `day` (`YYYY-MM-DD`). */
export function dayBefore(day: string): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000));
}

/** An amount of spend. */
export interface Spend {
  readonly usd: number;
  readonly tokens: number;
}

/** One day's ledger: the sum, the largest single turn per measure, and how many turns. */
export interface DayLedger extends Spend {
  /** The most one turn of that day spent, per measure (each measure's own largest turn). */
  readonly largest: Spend;
  readonly turns: number;
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
  const { usd, tokens } = await dayLedger(home, day);
  return { usd, tokens };
}

/** `day`'s ledger read whole; a line that does not parse counts as nothing. */
export async function dayLedger(home: string, day: string): Promise<DayLedger> {
  let text = "";
  try {
    text = await Deno.readTextFile(join(budgetDir(home), `${day}.jsonl`));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  let usd = 0;
  let tokens = 0;
  let largestUsd = 0;
  let largestTokens = 0;
  let turns = 0;
  for (const line of text.split("\n")) {
    if (!line) continue;
    let entry: { usd?: unknown; tokens?: unknown };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // a torn line from a killed write: nothing to count
    }
    if (typeof entry !== "object" || entry === null) continue;
    const u = amount(entry.usd);
    const t = amount(entry.tokens);
    usd += u;
    tokens += t;
    largestUsd = Math.max(largestUsd, u);
    largestTokens = Math.max(largestTokens, t);
    turns++;
  }
  return {
    usd: roundUsd(usd),
    tokens,
    largest: { usd: roundUsd(largestUsd), tokens: largestTokens },
    turns,
  };
}

/** A ledger number: finite and not negative, else nothing. */
function amount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** USD sums kept to nine decimals, so 0.1 + 0.2 reads 0.3. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
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

/**
 * Marks a limit as holding (`limit`: which one, and on which day) unless a marker exists. True
 * when this call created it: of several wakes finding a limit holding at once, exactly one does.
 */
export async function markExhausted(home: string, limit: string): Promise<boolean> {
  return await createOnce(exhaustedPath(home), `${limit}\n`);
}

/**
 * Clears the marker; a missing one is fine. True when this call removed it: of several wakes
 * finding the limit cleared at once, exactly one does.
 */
export async function clearExhausted(home: string): Promise<boolean> {
  try {
    await Deno.remove(exhaustedPath(home));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** `budget/notices`: one file per limit and day whose notice was sent (or attempted). */
export function noticesDir(home: string): string {
  return join(budgetDir(home), "notices");
}

/**
 * Takes the right to send `limit`'s exhaustion notice for `day`: true for exactly one caller
 * box-wide, whichever timeline its wake serves; false when it was taken before.
 */
export async function takeBudgetNotice(
  home: string,
  limit: string,
  day: string,
  now: Date = new Date(),
): Promise<boolean> {
  const path = join(noticesDir(home), `${quote(limit)}-${day}`);
  return await createOnce(path, `${now.toISOString()}\n`);
}

/** Writes `text` to a new file at `path`; false when the file exists already. */
async function createOnce(path: string, text: string): Promise<boolean> {
  await Deno.mkdir(dirname(path), { recursive: true });
  try {
    await Deno.writeTextFile(path, text, { createNew: true });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}
