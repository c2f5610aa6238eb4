/**
 * Self-authorship: `system_prompt_read` and `system_prompt_edit` let an agent read and rewrite
 * its OWN personality charter, `<config home>/prompts/system-prompt.md` — nothing else
 * (docs/tools.md#self-authorship-an-agent-edits-its-own-system-prompt; opt-in plugin stem
 * `system_prompt`).
 *
 * The safety is structural rather than validated: neither tool takes a path or agent argument,
 * so there is nothing a prompt-injected argument could redirect — not to another agent, and never
 * to `initialize.md`, where the fleet's input-security floor lives. An edit is a compare-and-swap
 * guarded by a content token, so a stale or reflexive call previews instead of clobbering; every
 * write first snapshots the old file as a timestamped `.bak`; the change lands next wake, when
 * the brief is re-composed.
 *
 * @module
 */
import { sha256Hex } from "../base/sha256.ts";
import { join } from "../base/paths.ts";
import { atomicWrite } from "../base/atomic_write.ts";
import { codePointLength } from "../base/code_points.ts";
import { type JsonSchema, Tool, type ToolContext } from "../core/types/tool.ts";
import { pyRepr } from "../pycompat/repr.ts";

/** The only file these tools touch, relative to the config home. Deliberately not variable. */
const PROMPT_DIR = "prompts";
const PROMPT_FILE = "system-prompt.md";

/**
 * The compare-and-swap token of `content`: the first 16 hex digits of its UTF-8 SHA-256. The
 * absent (unset) prompt's token is `editToken("")`.
 */
export function editToken(content: string): string {
  return sha256Hex(content).slice(0, 16);
}

/**
 * The snapshot's file name for an edit at `epochMicros`:
 * `system-prompt.md.<YYYYMMDDTHHMMSS.ffffffZ>[.<n>].bak` (UTC; `n` ≥ 1 only on a collision).
 */
export function backupName(epochMicros: number, collision = 0): string {
  const date = new Date(Math.floor(epochMicros / 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const stamp = `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${
    pad(date.getUTCHours())
  }${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}.${
    pad(Math.floor(epochMicros) % 1_000_000, 6)
  }Z`;
  return `${PROMPT_FILE}.${stamp}${collision ? `.${collision}` : ""}.bak`;
}

/** Options shared by both tools; every field has a production default. */
export interface SystemPromptOptions {
  /** Now, in microseconds since the epoch, for the `.bak` name (default: the wall clock). */
  readonly clock?: () => number;
  /**
   * Whether the installer laid the prompts into the config home (default: its `.manifest.json`
   * records a `prompts/` file). A seam so the config layer can pass its own check down.
   */
  readonly installed?: (configHome: string) => Promise<boolean>;
}

/** Wall-clock microseconds; `performance` adds the sub-millisecond digits `Date` lacks. */
function wallClockMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/**
 * The same test as `config/prompts.ts` `promptsInstalled`
 * (docs/configuration.md#what-the-reconcile-does-to-each-shipped-default). Restated here because
 * tools sit below config in the dependency order and may not import it; the config layer can pass
 * its own through {@link SystemPromptOptions.installed}.
 */
async function manifestHasPrompts(configHome: string): Promise<boolean> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(await Deno.readTextFile(join(configHome, ".manifest.json")));
  } catch {
    return false;
  }
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) return false;
  return Object.keys(manifest).some((rel) => rel.startsWith("prompts/"));
}

/** The prompt file holds bytes that are not UTF-8. */
class NotUtf8Error extends Error {}

/** The file as the tools see it: raw bytes (for the snapshot) and the text (for the token). */
interface Current {
  readonly exists: boolean;
  readonly bytes: Uint8Array;
  readonly text: string;
}

/** The one target, resolved from the config home given at construction, never from arguments. */
class PromptFile {
  readonly dir: string;
  readonly path: string;
  readonly clock: () => number;
  readonly #installed: (configHome: string) => Promise<boolean>;

  constructor(readonly configHome: string, options: SystemPromptOptions) {
    this.dir = join(configHome, PROMPT_DIR);
    this.path = join(this.dir, PROMPT_FILE);
    this.clock = options.clock ?? wallClockMicros;
    this.#installed = options.installed ?? manifestHasPrompts;
  }

  installed(): Promise<boolean> {
    return this.#installed(this.configHome);
  }

  async read(): Promise<Current> {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        return { exists: false, bytes: new Uint8Array(), text: "" };
      }
      throw error;
    }
    let decoded: string;
    try {
      // ignoreBOM keeps a BOM as text, so the token is the hash of what is really there.
      decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new NotUtf8Error();
    }
    // Newlines read "universally" (\r\n and \r become \n), as the reference's read_text() does,
    // so a token is the same whichever harness handed it out.
    return { exists: true, bytes, text: decoded.replace(/\r\n?/g, "\n") };
  }

  /**
   * Runs `body` holding an exclusive lock on the `prompts/` directory, so two edits racing with
   * the same token (two wakes, or two calls in one turn) serialise: the second re-reads under
   * the lock, sees the first one's content, and previews instead of clobbering it. `flock` on the
   * directory needs no lock file and dies with the process, so a crash leaves nothing stale.
   */
  async exclusive<T>(body: () => Promise<T>): Promise<T> {
    await Deno.mkdir(this.dir, { recursive: true }); // an installed home whose prompts/ was deleted
    const handle = await Deno.open(this.dir, { read: true });
    try {
      await handle.lock(true);
      return await body();
    } finally {
      handle.close(); // closing releases the lock
    }
  }

  /** Saves `bytes` (the old file, read under the lock) beside it; returns the snapshot's name. */
  async snapshot(bytes: Uint8Array): Promise<string> {
    const micros = this.clock();
    for (let collision = 0;; collision++) {
      const name = backupName(micros, collision);
      let file: Deno.FsFile;
      try {
        // createNew makes the collision check and the claim one step: an older .bak is never hit.
        file = await Deno.open(join(this.dir, name), { write: true, createNew: true });
      } catch (error) {
        if (error instanceof Deno.errors.AlreadyExists) continue;
        throw error;
      }
      try {
        let written = 0;
        while (written < bytes.length) written += await file.write(bytes.subarray(written));
        await file.sync();
      } finally {
        file.close();
      }
      return name;
    }
  }

  /** Replaces the file atomically, keeping the old file's permission bits when it had one. */
  async write(content: string, previousMode: number | null): Promise<void> {
    await atomicWrite(this.path, content);
    if (previousMode !== null) await Deno.chmod(this.path, previousMode & 0o7777).catch(() => {});
  }

  async mode(): Promise<number | null> {
    try {
      return (await Deno.stat(this.path)).mode;
    } catch {
      return null;
    }
  }
}

const NOT_INSTALLED_READ =
  "This config home's prompts are not installed, so there is no editable system-prompt.md yet " +
  "(your live charter, if any, comes from the environment or the packaged default, which this " +
  "tool does not manage). Run basecradle-harness-install to install the config-home prompts " +
  "first.";

const NOT_INSTALLED_EDIT =
  "Cannot edit: this config home's prompts are not installed, so an edit here would not take " +
  "effect on your next wake. Run basecradle-harness-install first.";

/** A file that is not UTF-8 cannot be shown or hashed as text; say so instead of guessing. */
function undecodable(path: string, error: unknown): string {
  if (!(error instanceof NotUtf8Error)) throw error;
  return `Error: ${path} is not valid UTF-8 text, so it cannot be read or edited here; ask an ` +
    "operator to fix its encoding.";
}

/** `system_prompt_read`: the agent's own system prompt, verbatim, plus its edit token. */
export class SystemPromptReadTool extends Tool {
  /** The name the model calls it by. */
  readonly name: string = "system_prompt_read";
  /** What it does, for the model. */
  readonly description: string =
    "Read your OWN system prompt (your personality charter) verbatim, exactly as stored on " +
    "disk — including operator HTML-comment notes and formatting the wake brief strips out. " +
    "Also returns a short edit token (a hash of the current content) to pass as 'confirm' to " +
    "system_prompt_edit. This is scoped to YOUR prompt by construction: it takes no path or " +
    "agent argument and can read no one else's, and it can never read initialize.md. Reading " +
    "does not change anything. An edit you make takes effect on your next wake.";
  /** No arguments, by construction. */
  override readonly parameters: JsonSchema = { type: "object", properties: {} };
  readonly #file: PromptFile;

  /** Reads `<configHome>/prompts/system-prompt.md`, and nothing else. */
  constructor(configHome: string, options: SystemPromptOptions = {}) {
    super();
    this.#file = new PromptFile(configHome, options);
  }

  /** Returns the raw file and its token; any arguments are ignored (there are none to honour). */
  async run(_args?: unknown): Promise<string> {
    // Only the file the wake actually reads: when prompts are not installed, the live charter
    // comes from elsewhere, and a token here would invite an edit that can never land.
    if (!await this.#file.installed()) return NOT_INSTALLED_READ;
    let current: Current;
    try {
      current = await this.#file.read();
    } catch (error) {
      return undecodable(this.#file.path, error);
    }
    if (!current.exists) {
      return `No system prompt is set: ${this.#file.path} does not exist. The edit token for ` +
        `an empty (unset) prompt is ${editToken("")} — pass it as 'confirm' to ` +
        "system_prompt_edit to author one.";
    }
    return `Your current system prompt (edit token: ${editToken(current.text)} — pass as ` +
      `'confirm' to system_prompt_edit; it changes if the file changes):\n\n${current.text}`;
  }
}

/** The edit tool's arguments as the model may send them. */
export interface EditArgs {
  /** The full new text; required, a string. */
  readonly content?: unknown;
  /** The current content's edit token; anything else previews. */
  readonly confirm?: unknown;
}

/** `system_prompt_edit`: replace the agent's own system prompt, behind a compare-and-swap. */
export class SystemPromptEditTool extends Tool {
  /** The name the model calls it by. */
  readonly name: string = "system_prompt_edit";
  /** What it does, for the model. */
  readonly description: string =
    "Rewrite your OWN system prompt (personality charter) IN FULL. This is the most powerful " +
    "action available: you are editing your own persona. It writes only when 'confirm' equals " +
    "the current content's edit token (get it from system_prompt_read, or from this tool's " +
    "preview when you call it without a matching confirm) — a compare-and-swap that refuses a " +
    "stale overwrite and previews instead of acting. A bare or mismatched call changes " +
    "NOTHING and returns a preview plus the exact token to use. Every successful edit first " +
    "saves a timestamped .bak backup of the old prompt beside it, so an operator can audit " +
    "and roll back. The new prompt takes effect on your NEXT WAKE (the brief is re-composed " +
    "each wake), not this turn. Scoped to YOUR prompt by construction: no path or agent " +
    "argument, and it can NEVER edit initialize.md (your input-security floor and operating " +
    "guidance stay outside this surface).";
  /** `content` (required) and `confirm`; deliberately no path. */
  override readonly parameters: JsonSchema = {
    type: "object",
    properties: {
      content: {
        type: "string",
        description: "The full new text of your system prompt. It REPLACES the file entirely — " +
          "this is not an append or a patch, so include everything you want to keep.",
      },
      confirm: {
        type: "string",
        description: "The current content's edit token, required to actually write. Get it " +
          "from system_prompt_read (or this tool's preview). A missing or mismatched token " +
          "changes nothing and returns a preview — which happens both when you have not " +
          "confirmed yet and when the file changed since you read it (a stale edit).",
      },
    },
    required: ["content"],
  };
  readonly #file: PromptFile;

  /** Edits `<configHome>/prompts/system-prompt.md`, and nothing else. */
  constructor(configHome: string, options: SystemPromptOptions = {}) {
    super();
    this.#file = new PromptFile(configHome, options);
  }

  /** Previews unless `confirm` matches the current token; then snapshots and writes. */
  async run(args: EditArgs = {}, call?: ToolContext): Promise<string> {
    const content = args?.content;
    if (typeof content !== "string") {
      call?.reportOutcome?.("invalid");
      return "Error: 'system_prompt_edit' needs 'content': the full new text of your system " +
        "prompt, as a string.";
    }
    const confirm = args.confirm === undefined || args.confirm === null
      ? undefined
      : String(args.confirm);
    // Installed-only, like the read: an edit to a file the next wake will not read never lands.
    if (!await this.#file.installed()) {
      call?.reportOutcome?.("refused");
      return NOT_INSTALLED_EDIT;
    }
    // A confirm that does not match is a refused write (the preview is the answer); no confirm
    // at all is the first, previewing step the tool asks for.
    const preview = (text: string) => {
      if (confirm !== undefined) call?.reportOutcome?.("refused");
      return this.#preview(text, content, confirm);
    };
    try {
      // A first look without the lock: a preview writes nothing, so it needs no lock either.
      const seen = await this.#file.read();
      if (confirm !== editToken(seen.text)) return preview(seen.text);
      return await this.#file.exclusive(async () => {
        // Re-read under the lock: this is the compare half of the compare-and-swap.
        const current = await this.#file.read();
        const token = editToken(current.text);
        if (confirm !== token) return preview(current.text);
        if (content === current.text) {
          return "No change: the new content is identical to the current system prompt. " +
            "Nothing was written and no backup was made.";
        }
        const mode = current.exists ? await this.#file.mode() : null;
        const backup = current.exists ? await this.#file.snapshot(current.bytes) : undefined;
        await this.#file.write(content, mode);
        const note = backup ? ` The previous version was saved to ${backup}.` : "";
        // The token the next read will hand out (it reads newlines universally).
        const next = editToken(content.replace(/\r\n?/g, "\n"));
        return `Rewrote your system prompt (${this.#file.path}).${note} This takes effect on ` +
          "your NEXT WAKE, when the brief is re-composed — not this turn. The new edit token " +
          `is ${next}.`;
      });
    } catch (error) {
      return undecodable(this.#file.path, error);
    }
  }

  /** A refusal is never a dead end: why nothing happened, what is there, the token to use. */
  #preview(current: string, proposed: string, confirm: string | undefined): string {
    const token = editToken(current);
    const why = confirm === undefined
      ? "No confirm was passed."
      : `The confirm you passed (${pyRepr(confirm)}) does not match the current edit token — ` +
        "either you have not confirmed yet, or the prompt changed since you read it.";
    const state = current
      ? `The current system prompt is ${codePointLength(current)} character(s) long. To ` +
        "replace it, read it first if you have not, then call system_prompt_edit again with " +
        `confirm=${token}.`
      : `No system prompt is set yet (${this.#file.path} is empty or absent). To author one, ` +
        `call system_prompt_edit again with confirm=${token}.`;
    return `Refused to edit your system prompt: nothing was written. ${why} Your proposed new ` +
      `content is ${codePointLength(proposed)} character(s). ${state} (A successful edit ` +
      "snapshots the old prompt as a .bak first and takes effect next wake.)";
  }
}

/** Both self-authorship tools for one config home: what the `system_prompt` stem provides. */
export function systemPromptTools(
  configHome: string,
  options: SystemPromptOptions = {},
): [SystemPromptReadTool, SystemPromptEditTool] {
  return [
    new SystemPromptReadTool(configHome, options),
    new SystemPromptEditTool(configHome, options),
  ];
}
