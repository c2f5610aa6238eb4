/**
 * Budget reservations (docs/home-layout.md#budget-files): what the turns in flight may still
 * spend, so wakes running at once on one HARNESS_HOME decide against one shared account.
 *
 * - `budget/lock`: every decision — reading the ledger and the leases, taking, updating and
 *   releasing a lease, charging a turn — happens under an exclusive `flock` on this file, held
 *   for a few file operations and released by the kernel if the process dies.
 * - `budget/leases/<pid>-<8 hex>.json`: one lease per turn in flight,
 *   `{"pid","reserved":{"tokens","usd"},"spent":{"tokens","usd"},"taken_at","timeline"}`. Its
 *   wake holds an exclusive `flock` on the file from taking the lease to releasing it, so the
 *   lease lives exactly as long as its process: a wake killed between reserve and settle
 *   (SIGKILL, the OOM killer) leaves a file nobody holds, and the next decision that finds it
 *   deletes it. No clock and no pid check is involved, so pid reuse and a revoked run permission
 *   change nothing.
 *
 * The lease's contents are replaced in place (only ever under `budget/lock`, so a reader never
 * sees half of them): a rename would move the name off the inode the holder has locked.
 */
import { join } from "../base/paths.ts";
import * as z from "../base/zod.ts";
import { budgetDir, roundUsd, type Spend } from "./budget.ts";

/** `budget/leases`. */
export function leasesDir(home: string): string {
  return join(budgetDir(home), "leases");
}

/** `budget/lock`. */
export function budgetLockPath(home: string): string {
  return join(budgetDir(home), "lock");
}

const AmountSchema = z.strictObject({
  tokens: z.number().nonnegative(),
  usd: z.number().nonnegative(),
});

const LeaseSchema = z.strictObject({
  pid: z.number().int(),
  reserved: AmountSchema,
  spent: AmountSchema,
  taken_at: z.string(),
  timeline: z.string(),
});

/** A live lease as another wake sees it. */
export interface LeaseView {
  /** The file name, without `.json`. */
  readonly id: string;
  readonly timeline: string;
  readonly pid: number;
  /** What its turn was admitted with. */
  readonly reserved: Spend;
  /** What its turn has spent so far (its completed model steps). */
  readonly spent: Spend;
}

/** What a lease still commits: its reservation, or its spend once that is larger. */
export function committed(lease: Pick<LeaseView, "reserved" | "spent">): Spend {
  return {
    tokens: Math.max(lease.reserved.tokens, lease.spent.tokens),
    usd: Math.max(lease.reserved.usd, lease.spent.usd),
  };
}

/** The sum of what `leases` commit. */
export function committedTotal(leases: readonly Pick<LeaseView, "reserved" | "spent">[]): Spend {
  let tokens = 0;
  let usd = 0;
  for (const lease of leases) {
    const each = committed(lease);
    tokens += each.tokens;
    usd += each.usd;
  }
  return { tokens, usd: roundUsd(usd) };
}

/**
 * Runs `fn` holding `budget/lock` (waiting for it). Keep `fn` to a few file operations: every
 * wake with a budget passes through here at each turn.
 */
export async function withBudgetLock<T>(home: string, fn: () => Promise<T>): Promise<T> {
  await Deno.mkdir(leasesDir(home), { recursive: true });
  const file = await Deno.open(budgetLockPath(home), { read: true, write: true, create: true });
  try {
    await file.lock(true); // released by close, or by the kernel when the process dies
    return await fn();
  } finally {
    file.close();
  }
}

/**
 * The leases whose holders are alive (call under {@link withBudgetLock}). A lease nobody holds
 * is a dead wake's: it is deleted here. A held lease whose contents do not parse commits
 * nothing (its holder rewrites it at its next step).
 */
export async function liveLeases(home: string): Promise<LeaseView[]> {
  const dir = leasesDir(home);
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".json")) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const live: LeaseView[] = [];
  for (const name of names.sort()) {
    const path = join(dir, name);
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    try {
      if (await file.tryLock(true)) {
        await Deno.remove(path).catch(() => {}); // its holder is gone: so is the reservation
        continue;
      }
      const view = parseLease(name.slice(0, -".json".length), await Deno.readTextFile(path));
      if (view) live.push(view);
    } finally {
      file.close();
    }
  }
  return live;
}

function parseLease(id: string, text: string): LeaseView | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = LeaseSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const { timeline, pid, reserved, spent } = parsed.data;
  return { id, timeline, pid, reserved, spent };
}

/** One turn's reservation, held by this process until {@link BudgetLease.release}. */
export class BudgetLease {
  /** The file name, without `.json`. */
  readonly id: string;
  /** What the turn was admitted with. */
  readonly reserved: Spend;
  readonly #path: string;
  readonly #file: Deno.FsFile;
  readonly #timeline: string;
  readonly #takenAt: string;
  #spent: Spend = { tokens: 0, usd: 0 };

  private constructor(
    id: string,
    path: string,
    file: Deno.FsFile,
    timeline: string,
    reserved: Spend,
    takenAt: Date,
  ) {
    this.id = id;
    this.#path = path;
    this.#file = file;
    this.#timeline = timeline;
    this.reserved = reserved;
    this.#takenAt = takenAt.toISOString();
  }

  /** Takes a lease reserving `reserved` for a turn on `timeline` (call under the lock). */
  static async take(
    home: string,
    timeline: string,
    reserved: Spend,
    now: Date = new Date(),
  ): Promise<BudgetLease> {
    const random = crypto.getRandomValues(new Uint8Array(4));
    const hex = Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("");
    const id = `${Deno.pid}-${hex}`;
    const path = join(leasesDir(home), `${id}.json`);
    const file = await Deno.open(path, { read: true, write: true, createNew: true });
    try {
      await file.lock(true); // nobody else can hold a file that did not exist a moment ago
      const lease = new BudgetLease(id, path, file, timeline, reserved, now);
      await lease.#write();
      return lease;
    } catch (error) {
      file.close();
      await Deno.remove(path).catch(() => {});
      throw error;
    }
  }

  /** What the turn has spent so far. */
  get spent(): Spend {
    return this.#spent;
  }

  /** Records what the turn has spent so far (call under the lock). */
  async record(spent: Spend): Promise<void> {
    this.#spent = { tokens: spent.tokens, usd: roundUsd(spent.usd) };
    await this.#write();
  }

  /** Ends the lease: deletes its file and lets go of it (call under the lock). */
  async release(): Promise<void> {
    try {
      await Deno.remove(this.#path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    } finally {
      this.#file.close(); // the lock goes with the descriptor
    }
  }

  async #write(): Promise<void> {
    const text = JSON.stringify({
      pid: Deno.pid,
      reserved: this.reserved,
      spent: this.#spent,
      taken_at: this.#takenAt,
      timeline: this.#timeline,
    });
    // In place, through a second descriptor: the held one keeps its lock either way (flock is
    // per open file, and closing another descriptor does not release it).
    await Deno.writeTextFile(this.#path, `${text}\n`);
  }
}
