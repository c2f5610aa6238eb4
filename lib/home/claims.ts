/**
 * Two-phase item claims (docs/home-layout.md#claims, docs/home-layout.md#concurrency-and-locking):
 * the only cross-process exclusivity the harness has. A claim is born populated by hard-linking a
 * written temp into place (create-if-absent, so the path is never observable empty — an empty claim
 * is the legacy `done`); an orphan is taken over by hard-linking a token that names the owner
 * judged dead (a compare-and-swap: only one wake can take an item *from that owner*); commit and
 * abandon rewrite by temp + rename.
 */
import { join } from "../base/paths.ts";
import { quote, unquote } from "../pycompat/quote.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import {
  type ClaimRecord,
  encodeClaimRecord,
  isFinalText,
  isSettled,
  parseClaimRecord,
} from "./claim_record.ts";
import { processAlive } from "./liveness.ts";
import { type ClaimKind, claimsDir } from "./paths.ts";
import { rememberSettled, settledView } from "./settled_index.ts";

export type { ClaimKind } from "./paths.ts";

/** An in-flight claim older than this is recoverable even if its pid looks alive (pid reuse). */
export const CLAIM_STALE_AFTER_SECONDS = 6 * 60 * 60;

/** How far `owner` follows take-over tokens; one hop per crashed recovery, so more is corrupt. */
export const TAKEOVER_HOPS = 16;

/** How a {@link ClaimStore} is built; everything but `home` has a production default. */
export interface ClaimStoreOptions {
  /** This wake's id, stamped into its claims; default a fresh `uuid4().hex`-style 32-hex id. */
  readonly wakeId?: string;
  /** The pid stamped into claims and temp names; default `Deno.pid`. */
  readonly pid?: number;
  /** The clock, epoch seconds; default `Date.now() / 1000`. */
  readonly now?: () => number;
  /** Whether a pid is a live process; default `kill(pid, 0)` semantics. */
  readonly isAlive?: (pid: number) => boolean;
  /** Where an unreadable claim is reported; default silent. */
  readonly journal?: Journal;
}

/** The outcome of {@link ClaimStore.claim}. */
export type ClaimOutcome = "won" | "lost";

/** A fresh 32-lowercase-hex wake id, the shape of Python's `uuid4().hex`. */
export function newWakeId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/** The claims of one wake under one `HARNESS_HOME`. */
export class ClaimStore {
  /** The `HARNESS_HOME` the claims live under. */
  readonly home: string;
  /** This wake's id. */
  readonly wakeId: string;
  /** This process's pid, as stamped into claims. */
  readonly pid: number;
  readonly #now: () => number;
  readonly #isAlive: (pid: number) => boolean;
  readonly #journal: Journal;

  /** A store for one wake; see {@link ClaimStoreOptions} for the injectable parts. */
  constructor(home: string, options: ClaimStoreOptions = {}) {
    this.home = home;
    this.wakeId = options.wakeId ?? newWakeId();
    this.pid = options.pid ?? Deno.pid;
    this.#now = options.now ?? (() => Date.now() / 1000);
    this.#isAlive = options.isAlive ?? processAlive;
    this.#journal = options.journal ?? silentJournal;
  }

  /**
   * Claims `uuid` as in-flight for this wake. `"won"` if this wake now owns it, `"lost"` if a
   * claim already existed (whatever its phase — the caller reads it to decide).
   */
  async claim(kind: ClaimKind, timeline: string, uuid: string): Promise<ClaimOutcome> {
    const dir = claimsDir(this.home, kind, timeline);
    await Deno.mkdir(dir, { recursive: true });
    const temp = join(dir, `.${quote(uuid)}.${this.wakeId}.new`);
    const target = this.#claimPath(kind, timeline, uuid);
    return await this.#publish(temp, target, this.#inFlight()) ? "won" : "lost";
  }

  /** The record on `uuid`, or undefined if it was never claimed. */
  read(kind: ClaimKind, timeline: string, uuid: string): Promise<ClaimRecord | undefined> {
    return this.#readAt(this.#claimPath(kind, timeline, uuid));
  }

  /**
   * The record of whoever really holds `uuid`: the claim file, unless a take-over won a token
   * from its owner (and maybe died before rewriting the claim) — then the token's record, and so
   * on along the chain, at most {@link TAKEOVER_HOPS} hops. Undefined if never claimed.
   */
  async owner(kind: ClaimKind, timeline: string, uuid: string): Promise<ClaimRecord | undefined> {
    let record = await this.read(kind, timeline, uuid);
    if (record === undefined) return undefined;
    const seen = new Set<string>();
    while (record.wake !== null && !seen.has(record.wake) && seen.size < TAKEOVER_HOPS) {
      seen.add(record.wake);
      const successor = await this.#readAt(this.#tokenPath(kind, timeline, uuid, record.wake));
      if (successor === undefined || successor.wake === null) break;
      record = successor;
    }
    return record;
  }

  /**
   * Whether `record` is an in-flight claim whose wake is over: not this wake, and either an
   * earlier wake of this very process, or a dead pid, or older than 6 h (a reused pid).
   */
  isOrphaned(record: ClaimRecord): boolean {
    if (record.phase !== "in-flight" || record.wake === this.wakeId) return false;
    if (record.pid === this.pid) return true; // this process runs one wake at a time
    if (record.pid === null || !this.#isAlive(record.pid)) return true;
    return this.#now() - (record.at ?? 0) > CLAIM_STALE_AFTER_SECONDS;
  }

  /** Whether `record` is final (`done` or `abandoned`). */
  isSettled(record: ClaimRecord): boolean {
    return isSettled(record);
  }

  /**
   * Takes over an orphaned claim, as a compare-and-swap against the owner the caller judged:
   * `ownerWake` is that owner's wake id (null for a record without one); when omitted, the
   * effective {@link owner} is judged here and must be {@link isOrphaned}. Exactly one wake can
   * win the token for a given owner. True if this wake now holds the item.
   */
  async takeOver(
    kind: ClaimKind,
    timeline: string,
    uuid: string,
    ownerWake?: string | null,
  ): Promise<boolean> {
    let judged = ownerWake;
    if (judged === undefined) {
      const current = await this.owner(kind, timeline, uuid);
      if (current === undefined || !this.isOrphaned(current)) return false;
      judged = current.wake;
    }
    const dir = claimsDir(this.home, kind, timeline);
    await Deno.mkdir(dir, { recursive: true });
    const temp = join(dir, `.${quote(uuid)}.${this.wakeId}.takeover.new`);
    const record = this.#inFlight(); // the token and the claim carry the same record
    const won = await this.#publish(temp, this.#tokenPath(kind, timeline, uuid, judged), record);
    if (!won) return false; // another wake already took this owner's claim
    // The token is ours, so no other taker can be writing; but the judged owner may have been
    // slow rather than dead and settled the item meanwhile — never put a settled item back in
    // flight (the token stays: it names us, and a settled claim's chain is never followed).
    const current = await this.read(kind, timeline, uuid);
    if (current === undefined || isSettled(current)) return false;
    await this.#rewrite(kind, timeline, uuid, record);
    return true;
  }

  /** Marks `uuid` done: acted on, final. */
  async commit(kind: ClaimKind, timeline: string, uuid: string): Promise<void> {
    await this.#rewrite(kind, timeline, uuid, {
      phase: "done",
      pid: null,
      wake: null,
      at: this.#now(),
    });
  }

  /** Marks `uuid` abandoned: never to be acted on, for `reason`. */
  async abandon(kind: ClaimKind, timeline: string, uuid: string, reason: string): Promise<void> {
    await this.#rewrite(kind, timeline, uuid, {
      phase: "abandoned",
      pid: null,
      wake: null,
      at: this.#now(),
      reason,
    });
  }

  /**
   * The uuids (sorted) of `kind` claims on `timeline` that are not settled. Claims the
   * settled-claims index names are skipped unread; claims found settled are added to it.
   */
  async unsettled(kind: ClaimKind, timeline: string): Promise<string[]> {
    const dir = claimsDir(this.home, kind, timeline);
    const names: string[] = [];
    try {
      for await (const { name } of Deno.readDir(dir)) names.push(name);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    const { skip, contested } = settledView(dir, names);
    const found: string[] = [];
    const settled: string[] = [];
    for (const name of names) {
      // Temps (`.new`, `.tmp`), tokens (`.takeover.<wake>`) and the index never end in `.claim`.
      if (!name.endsWith(".claim") || skip.has(name)) continue;
      const text = await this.#readText(join(dir, name));
      if (text === undefined) continue;
      if (isFinalText(text)) {
        if (!contested.has(name)) settled.push(name);
      } else if (!isSettled(parseClaimRecord(text, join(dir, name), this.#journal))) {
        found.push(unquote(name.slice(0, -".claim".length)));
      }
    }
    rememberSettled(dir, settled);
    return found.sort();
  }

  #inFlight(): ClaimRecord {
    return { phase: "in-flight", pid: this.pid, wake: this.wakeId, at: this.#now() };
  }

  #claimPath(kind: ClaimKind, timeline: string, uuid: string): string {
    return join(claimsDir(this.home, kind, timeline), `${quote(uuid)}.claim`);
  }

  #tokenPath(kind: ClaimKind, timeline: string, uuid: string, owner: string | null): string {
    // Python spells a missing owner `str(None)`; the same name keeps the CAS shared across runtimes.
    const name = `.${quote(uuid)}.takeover.${quote(owner ?? "None")}`;
    return join(claimsDir(this.home, kind, timeline), name);
  }

  /** Writes `record` to `temp` and hard-links it to `target`; false if `target` exists. */
  async #publish(temp: string, target: string, record: ClaimRecord): Promise<boolean> {
    try {
      await Deno.writeTextFile(temp, encodeClaimRecord(record));
      await Deno.link(temp, target);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) return false;
      throw error;
    } finally {
      await Deno.remove(temp).catch(() => {});
    }
  }

  /** Replaces the claim record atomically: `<uuid>.claim.<pid>.tmp`, then rename over it. */
  async #rewrite(kind: ClaimKind, timeline: string, uuid: string, record: ClaimRecord) {
    const path = this.#claimPath(kind, timeline, uuid);
    await Deno.mkdir(claimsDir(this.home, kind, timeline), { recursive: true });
    const temp = `${path}.${this.pid}.tmp`;
    try {
      await Deno.writeTextFile(temp, encodeClaimRecord(record));
      await Deno.rename(temp, path);
    } catch (error) {
      await Deno.remove(temp).catch(() => {});
      throw error;
    }
  }

  async #readAt(path: string): Promise<ClaimRecord | undefined> {
    const text = await this.#readText(path);
    return text === undefined ? undefined : parseClaimRecord(text, path, this.#journal);
  }

  /** A claim file's text, or undefined when there is no such file. */
  async #readText(path: string): Promise<string | undefined> {
    try {
      return await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  }
}
