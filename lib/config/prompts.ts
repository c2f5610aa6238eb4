/**
 * Where the agent's prompts come from (docs/configuration.md#the-config-home,
 * docs/configuration.md#prompts): the config home's `prompts/system-prompt.md` and
 * `prompts/initialize.md` once the installer has laid them down, the embedded defaults before that,
 * and the legacy `HARNESS_SYSTEM_PROMPT` only for a home that was never installed. HTML comments
 * are operator notes and never reach the model.
 */
import { errorMessage } from "../base/error_text.ts";
import { expandHome, join } from "../base/paths.ts";
import { readBytes } from "../base/read_files.ts";
import { DEFAULT_INITIALIZE, DEFAULT_SYSTEM_PROMPT } from "./defaults.ts";
import { ConfigError } from "./errors.ts";
import { type Manifest, readManifest } from "./bookkeeping.ts";

/** The config home's path relative to `$HOME` when nothing else names it. */
export const DEFAULT_CONFIG_HOME = ".config/basecradle";
/** The personality file, relative to the config home. */
export const SYSTEM_PROMPT_FILE = "prompts/system-prompt.md";
/** The operating-guidance file, relative to the config home. */
export const INITIALIZE_FILE = "prompts/initialize.md";

// Non-greedy and across newlines, so two comments never swallow the text between them.
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

/**
 * Removes every `<!-- … -->` comment (multi-line too), then trims the whole text. Only the
 * comment characters go: the line breaks around a comment stay, so a comment on its own line
 * leaves its blank lines behind, exactly as in the reference. An unclosed `<!--` is kept.
 */
export function stripHtmlComments(text: string): string {
  return text.replace(HTML_COMMENT, "").trim();
}

/** The variables the config home's location depends on (a {@link HarnessEnv} fits). */
export interface ConfigHomeEnv {
  /** `BASECRADLE_CONFIG_HOME`. */
  readonly configHome?: string;
  /** `HOME`. */
  readonly home?: string;
}

/**
 * The config home: the explicit `flag` (`--config-home`), else `BASECRADLE_CONFIG_HOME`, else
 * `$HOME/.config/basecradle`. A leading `~` or `~/` is expanded with `HOME`. Pure.
 * @throws {ConfigError} when the answer needs `HOME` and it is unset.
 */
export function resolveConfigHome(env: ConfigHomeEnv, flag?: string): string {
  const named = flag?.trim() || env.configHome?.trim() || undefined;
  const home = env.home?.trim() || undefined;
  const needHome = (why: string): string => {
    if (home !== undefined) return home;
    throw new ConfigError({
      variable: "HOME",
      message: `HOME is not set, so ${why}; set BASECRADLE_CONFIG_HOME or pass --config-home ` +
        "with an absolute path.",
    });
  };
  if (named === undefined) {
    return join(needHome("the default config home cannot be found"), DEFAULT_CONFIG_HOME);
  }
  return expandHome(named, home) ?? needHome(`'${named}' cannot be expanded`);
}

/** Which source the prompts came from. */
export type PromptSource = "config-home" | "defaults" | "HARNESS_SYSTEM_PROMPT";

/** The two prompt texts, comments stripped. A part the operator deleted is `""`. */
export interface Prompts {
  /** The personality (`system-prompt.md`, or the legacy variable). */
  readonly systemPrompt: string;
  /** The operating guidance (`initialize.md`). */
  readonly initialize: string;
  /** Where `systemPrompt` came from; `initialize` follows the same home-or-defaults choice. */
  readonly source: PromptSource;
}

/** What {@link loadPrompts} and {@link loadCharter} read. */
export interface LoadPromptsOptions {
  /** The resolved config home; undefined means there is none (treated as never installed). */
  readonly configHome?: string;
  /** `HARNESS_SYSTEM_PROMPT` as parsed (a {@link HarnessEnv} fits). */
  readonly env?: { readonly systemPrompt?: string };
  /** The home's manifest when the caller already read it (default: read here). */
  readonly manifest?: Manifest;
}

/**
 * Whether the installer laid the prompts into `configHome`: its `.manifest.json` records a
 * `prompts/` file. A missing, unreadable or malformed manifest counts as empty
 * (docs/configuration.md#what-the-reconcile-does-to-each-shipped-default).
 */
export async function promptsInstalled(configHome: string): Promise<boolean> {
  return hasPrompts(await readManifest(configHome));
}

/** Whether `manifest` records a `prompts/` file. */
function hasPrompts(manifest: Manifest): boolean {
  return Object.keys(manifest).some((rel) => rel.startsWith("prompts/"));
}

/**
 * The brief's prompt parts (docs/configuration.md#prompts). Installed home: its files, a deleted
 * one reading as `""` (a default the operator removed is never resurrected). Never-installed home:
 * `initialize` is the embedded default and `systemPrompt` is `HARNESS_SYSTEM_PROMPT` when set,
 * else the embedded default.
 * @throws {ConfigError} naming the file, when an existing prompt file cannot be read.
 */
export async function loadPrompts(options: LoadPromptsOptions): Promise<Prompts> {
  const home = options.configHome;
  if (home !== undefined && hasPrompts(options.manifest ?? await readManifest(home))) {
    const [systemPrompt, initialize] = await Promise.all([
      readPrompt(join(home, SYSTEM_PROMPT_FILE)),
      readPrompt(join(home, INITIALIZE_FILE)),
    ]);
    return {
      systemPrompt: systemPrompt ?? "",
      initialize: initialize ?? "",
      source: "config-home",
    };
  }
  const legacy = options.env?.systemPrompt?.trim();
  return {
    systemPrompt: legacy || stripHtmlComments(DEFAULT_SYSTEM_PROMPT),
    initialize: stripHtmlComments(DEFAULT_INITIALIZE),
    source: legacy ? "HARNESS_SYSTEM_PROMPT" : "defaults",
  };
}

/**
 * The seeded charter for a wake with the brief off (and poll mode; docs/configuration.md#prompts):
 * when either prompt file exists in the home, their stripped non-empty texts joined by a blank line
 * (a charter left deliberately blank stays `""`); when neither exists, `HARNESS_SYSTEM_PROMPT`,
 * else `undefined`. Unlike {@link loadPrompts} this asks whether the files exist, not the manifest.
 * @throws {ConfigError} naming the file, when an existing prompt file cannot be read.
 */
export async function loadCharter(options: LoadPromptsOptions): Promise<string | undefined> {
  const home = options.configHome;
  if (home !== undefined) {
    const parts = await Promise.all([
      readPrompt(join(home, SYSTEM_PROMPT_FILE)),
      readPrompt(join(home, INITIALIZE_FILE)),
    ]);
    if (parts.some((part) => part !== undefined)) return parts.filter(Boolean).join("\n\n");
  }
  return options.env?.systemPrompt?.trim() || undefined;
}

/** A prompt file's text with comments stripped; `undefined` when the file does not exist. */
async function readPrompt(path: string): Promise<string | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw unreadable(path, error);
  }
  try {
    return stripHtmlComments(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw unreadable(path, error);
  }
}

function unreadable(path: string, error: unknown): ConfigError {
  const reason = errorMessage(error);
  return new ConfigError({
    variable: path,
    message: `Prompt file ${path} could not be read: ${reason}. Fix its permissions or ` +
      "encoding (UTF-8), or delete it to leave that part out.",
  }, { cause: error });
}
