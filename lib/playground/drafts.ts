/**
 * Trying a change before it ships (docs/playground.md#try-a-change): a draft copy of an agent's
 * config home, `<data>/drafts/<handle>/`, whose charter files, `guardrails.json` and knowledge
 * files (`knowledge/*.md`, when there are any) the page edits, and `harness replay` run against
 * it over the agent's recorded turns — the real command, in its own process, offline: the
 * sandbox's model, tools answered from the records, nothing sent. The live config home is only
 * ever read (to make the draft); nothing here writes to it.
 *
 * The draft starts as a copy of the live config home. When that was never installed (a wake then
 * runs on the embedded defaults) the draft is installed with `harness install`, which lays the
 * same defaults down as files, so an untouched draft replays with the recorded charter.
 */
import { dirname, join, relative } from "node:path";
import { errorMessage } from "../base/error_text.ts";
import * as z from "../base/zod.ts";
import { promptsInstalled } from "../config/prompts.ts";
import { type ReplayReport, ReplayReportSchema } from "../replay/report.ts";
import { harnessInvocation, spawnWake } from "../sandbox/wake_process.ts";

/** The files the page may edit, relative to the config home. */
export const CHARTER_FILES = ["prompts/system-prompt.md", "prompts/initialize.md"] as const;
/** The guardrails file (docs/security.md#guardrailsjson); offered even before it exists. */
export const GUARDRAILS_FILE = "guardrails.json";
/** Knowledge files: any `knowledge/<name>.md` the config home holds. */
const KNOWLEDGE = /^knowledge\/[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}\.md$/;

/** Whether the page may write `path` in a draft. */
export function editable(path: string): boolean {
  return (CHARTER_FILES as readonly string[]).includes(path) || path === GUARDRAILS_FILE ||
    KNOWLEDGE.test(path);
}

/** One editable file of the draft. */
export interface DraftFile {
  readonly path: string;
  /** The draft's text; empty for a file that does not exist yet. */
  readonly text: string;
  readonly exists: boolean;
  /** Whether the draft differs from where it started (the live config home's file). */
  readonly changed: boolean;
}

/** A draft of one agent's config home. */
export interface DraftOptions {
  readonly dataDir: string;
  readonly handle: string;
  /** The live config home (read only). */
  readonly liveConfigHome: string;
  /** The environment `harness install` and `harness replay` run with (no agent settings). */
  readonly env: Readonly<Record<string, string>>;
  /** Settings every replay takes, as the wakes do (the memory provider). */
  readonly settings: Readonly<Record<string, string>>;
}

const Base = z.record(z.string(), z.string().nullable());

/** A draft config home and its replays. */
export class Draft {
  readonly #options: DraftOptions;
  #replaying = false;

  constructor(options: DraftOptions) {
    this.#options = options;
  }

  /** `<data>/drafts/<handle>/`: the draft config home. */
  get dir(): string {
    return join(this.#options.dataDir, "drafts", this.#options.handle);
  }

  /** `<data>/drafts/<handle>.base.json`: each editable file's text when the draft was made. */
  get #basePath(): string {
    return `${this.dir}.base.json`;
  }

  /** The editable files, making the draft first when there is none. */
  async files(): Promise<DraftFile[]> {
    await this.#ensure();
    const base = Base.parse(JSON.parse(await Deno.readTextFile(this.#basePath)));
    const paths = new Set([...CHARTER_FILES, GUARDRAILS_FILE, ...await this.#knowledge()]);
    const files: DraftFile[] = [];
    for (const path of paths) {
      const text = await readOptional(join(this.dir, path));
      files.push({
        path,
        text: text ?? "",
        exists: text !== null,
        changed: text !== (base[path] ?? null),
      });
    }
    return files;
  }

  /** Writes one editable file of the draft. */
  async save(path: string, text: string): Promise<void> {
    if (!editable(path)) throw new DraftError(`${path} is not a file the studio edits.`);
    await this.#ensure();
    const target = join(this.dir, path);
    await Deno.mkdir(dirname(target), { recursive: true });
    await Deno.writeTextFile(target, text);
  }

  /** Throws the draft away; the next read makes it again from the live config home. */
  async reset(): Promise<void> {
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
    await Deno.remove(this.#basePath).catch(() => {});
  }

  /**
   * Replays the newest `last` recorded turns of `timeline` against the draft:
   * `harness replay --timeline … --last N --config-home <draft> --handle <agent> --json`, with
   * the agent's HARNESS_HOME and no AI_API_KEY, so the sandbox's model answers.
   */
  async replay(home: string, timeline: string, last: number): Promise<ReplayReport> {
    if (this.#replaying) throw new DraftError("A replay is already running; wait for it.");
    this.#replaying = true;
    try {
      await this.#ensure();
      const { stdout, stderr, code } = await run(
        ["replay", "--timeline", timeline, "--last", String(last), "--config-home", this.dir]
          .concat(["--handle", this.#options.handle, "--json"]),
        { ...this.#options.env, ...this.#options.settings, HARNESS_HOME: home },
      );
      if (!stdout.trim()) {
        throw new DraftError(
          `harness replay exited ${code}: ${stderr.trim().split("\n").at(-1) ?? "no output"}`,
        );
      }
      return ReplayReportSchema.parse(JSON.parse(stdout));
    } finally {
      this.#replaying = false;
    }
  }

  async #ensure(): Promise<void> {
    try {
      await Deno.stat(this.#basePath);
      return;
    } catch {
      // No draft yet: make one.
    }
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
    await Deno.mkdir(this.dir, { recursive: true });
    await copyTree(this.#options.liveConfigHome, this.dir);
    if (!await promptsInstalled(this.dir)) {
      const installed = await run(["install"], {
        ...this.#options.env,
        BASECRADLE_CONFIG_HOME: this.dir,
      });
      if (installed.code !== 0) {
        throw new DraftError(`harness install could not lay the draft down: ${installed.stderr}`);
      }
    }
    const base: Record<string, string | null> = {};
    for (const path of [...CHARTER_FILES, GUARDRAILS_FILE, ...await this.#knowledge()]) {
      base[path] = await readOptional(join(this.dir, path));
    }
    await Deno.writeTextFile(this.#basePath, JSON.stringify(base));
  }

  async #knowledge(): Promise<string[]> {
    const found: string[] = [];
    try {
      for await (const entry of Deno.readDir(join(this.dir, "knowledge"))) {
        const path = `knowledge/${entry.name}`;
        if (entry.isFile && KNOWLEDGE.test(path)) found.push(path);
      }
    } catch {
      // No knowledge folder.
    }
    return found.sort();
  }
}

/** A refusal the page shows as it is. */
export class DraftError extends Error {
  override name = "DraftError";
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Copies `from` (when it exists) into `to`: regular files and folders, links skipped. */
async function copyTree(from: string, to: string): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(from));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  for (const entry of entries) {
    const source = join(from, entry.name);
    const target = join(to, relative(from, source));
    if (entry.isDirectory) {
      await Deno.mkdir(target, { recursive: true });
      await copyTree(source, target);
    } else if (entry.isFile) {
      await Deno.copyFile(source, target);
    }
  }
}

/**
 * Runs `harness <args>` as this program runs it, with exactly `env`, through the one wake
 * spawner: stdout kept as text, stderr as its lines.
 */
async function run(
  args: string[],
  env: Readonly<Record<string, string>>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stderr: string[] = [];
  try {
    const exit = await spawnWake({
      invocation: harnessInvocation(args),
      env: { ...env, NO_COLOR: "1" },
      clearEnv: true,
      keep: "stdout",
      onJournalLine: (line) => stderr.push(line),
    });
    return { code: exit.code, stdout: exit.kept ?? "", stderr: stderr.join("\n") };
  } catch (error) {
    throw new DraftError(`could not run harness ${args[0]}: ${errorMessage(error)}`);
  }
}
