/**
 * `harness resolve`: which tool names and built-ins a hypothetical configuration activates,
 * as JSON (docs/configuration.md#harness-resolve). Pure: every input is a flag — no environment, no
 * config home, no network, no writes — so automation computing a fleet pin gets the answer a box
 * would. A bad question (unknown provider, SDK, surface, stem) is one stderr line and exit 1 with
 * nothing on stdout: a half-answer is worse than none.
 */
import {
  MEMORY_PROVIDER_FLAG,
  OPT_IN_FLAG,
  PROVIDER_FLAG,
  SDK_FLAG,
  STEMS_FLAG,
  SURFACE_FLAG,
} from "./flag_values.ts";
import { errorMessage } from "../base/error_text.ts";
import { type Command, commandLabel, processIo, UsageError } from "./command.ts";
import { pythonJsonFile } from "../config/bookkeeping.ts";
import { splitStems } from "../config/stems.ts";
import { resolveTools, type ToolResolution } from "../config/tool_resolution.ts";
import { loadMemoryProvider } from "../memory/loader.ts";
import { validateModelAxes } from "../providers/axes.ts";
import { VERSION } from "../base/version.ts";

const options = {
  provider: PROVIDER_FLAG,
  sdk: SDK_FLAG,
  surface: SURFACE_FLAG,
  model: { type: "string" },
  profile: { type: "string", values: ["locked", "unlocked"] },
  "opt-in": OPT_IN_FLAG,
  only: STEMS_FLAG,
  "memory-provider": MEMORY_PROVIDER_FLAG,
  "assume-credentials": { type: "boolean" },
  "no-assume-credentials": { type: "boolean" },
} as const;

/** The two classes of active tool no stem set can predict, stated in the answer. */
const OMITTED = [
  {
    source: "mcp",
    reason: "MCP proxy tools come from an agent's own mcp/*.json servers, which no stem set " +
      "can predict; add them separately. `harness wake --resolved-config` on the box reports " +
      "the configured servers.",
  },
  {
    source: "runtime_veto",
    reason: "A tool's runtime self-veto (e.g. `shell` refusing to load as root) is a property " +
      "of the box, not of this configuration, so it is not applied here; " +
      "`harness wake --resolved-config` on the box is the authority for it.",
  },
];

/** A memory backend's reported name and tool names. */
interface MemoryAnswer {
  readonly provider: string;
  readonly tools: string[];
}

async function memoryAnswer(spec: string | undefined): Promise<MemoryAnswer> {
  const raw = (spec ?? "").trim();
  // The built-in backend's one tool is known without opening anything.
  if (raw === "" || raw.toLowerCase() === "sqlite") {
    return { provider: "sqlite", tools: ["memory"] };
  }
  const bound = await loadMemoryProvider(raw);
  const tools = (bound.provider.tools?.() ?? []).map((tool) => tool.name).sort();
  await bound.provider.close?.();
  return { provider: bound.name, tools };
}

/** The JSON document for one resolution (docs/configuration.md#harness-resolve). */
export function resolveDocument(
  question: {
    provider: string;
    sdk: string;
    surface: string;
    model: string;
    profile: string;
    requested: readonly string[];
    assumeCredentials: boolean;
    memory: MemoryAnswer;
  },
  answer: ToolResolution,
): Record<string, unknown> {
  const stems: Record<string, unknown> = {};
  for (const [stem, entry] of Object.entries(answer.stems)) {
    stems[stem] = {
      opt_in: entry.optIn,
      granted: entry.granted,
      status: entry.status,
      reason: entry.reason,
      tools: entry.tools,
      builtins: entry.builtins,
      assumes_credential: entry.assumesCredential,
      skipped: entry.skipped,
    };
  }
  const skipped = answer.skipped.map((item) => ({
    name: item.name,
    stem: item.stem ?? "",
    reason: item.reason,
  })).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : a.stem < b.stem ? -1 : 1);
  return {
    harness_version: VERSION,
    ai_provider: question.provider,
    ai_sdk: question.sdk,
    ai_sdk_surface: question.surface,
    ai_model: question.model,
    active_profile: question.profile,
    credentials: {
      mode: question.assumeCredentials ? "assumed" : "absent",
      assumed: question.assumeCredentials ? answer.credentialVars : [],
    },
    memory: {
      provider: question.memory.provider,
      provider_version: null,
      tools: question.memory.tools,
    },
    requested_stems: [...new Set(question.requested)].sort(),
    tools: answer.tools,
    builtins: answer.builtins,
    opt_in_tools: answer.optInTools,
    stems,
    skipped,
    excluded_stems: answer.excludedStems,
    broken: answer.broken,
    omitted: OMITTED,
  };
}

/** `harness resolve`: the pure stem → tool-name resolver. */
export const resolveCommand: Command<typeof options> = {
  name: "resolve",
  usage: `Usage: harness resolve [--provider P] [--sdk S] [--surface X] [--model M]
                       [--profile locked|unlocked] [--opt-in a,b] [--only a,b]
                       [--memory-provider NAME] [--assume-credentials|--no-assume-credentials]

Print, as JSON, the tool names and server-side built-ins a configuration would activate from
this build's shipped tool plugins, and why every other stem does not. Pure: reads no
environment, no config home, no network; writes nothing.

Options:
  --provider P         AI_PROVIDER: openai (default), xai, openrouter or anthropic
  --sdk S              AI_SDK: openai (default), openrouter, anthropic (the default with
                       --provider anthropic), or xai-sdk (runs on openai)
  --surface X          AI_SDK_SURFACE (default: the SDK's own default surface)
  --model M            AI_MODEL, echoed
  --profile P          locked (default) or unlocked: the policy gating shell-class tools
  --opt-in a,b         powerful plugin file stems to grant (as harness install --opt-in)
  --only a,b           restrict the candidates to exactly these stems (granting powerful ones)
  --memory-provider N  sqlite (default) or a memory module path; its tools are merged
  --assume-credentials     treat every credential a requirement reads as set (default)
  --no-assume-credentials  treat them all as absent
  -h, --help           show this help

Exit codes: 0 answered (JSON on stdout), 1 a bad question (one line on stderr, nothing on
stdout), 2 usage error.
`,
  options,
  readsEnvironment: false,
  async run({ values }) {
    const profile = (values.profile ?? "locked").trim().toLowerCase();
    if (profile !== "locked" && profile !== "unlocked") {
      throw new UsageError(`--profile must be locked or unlocked, got '${values.profile}'`);
    }
    if (values["assume-credentials"] && values["no-assume-credentials"]) {
      throw new UsageError("--assume-credentials and --no-assume-credentials are exclusive");
    }
    const assumeCredentials = !values["no-assume-credentials"];
    try {
      const axes = validateModelAxes({
        provider: values.provider ?? "openai",
        sdk: values.sdk,
        surface: values.surface,
      });
      const optIn = splitStems(values["opt-in"]);
      const only = values.only === undefined ? null : splitStems(values.only);
      const memory = await memoryAnswer(values["memory-provider"]);
      const answer = resolveTools({
        provider: axes.provider,
        sdk: axes.sdk,
        surface: axes.surface,
        profile,
        optIn,
        only,
        overlay: null,
        memoryTools: memory.tools,
        assumeCredentials,
      });
      const document = resolveDocument({
        ...axes,
        model: values.model ?? "",
        profile,
        requested: [...optIn, ...(only ?? [])],
        assumeCredentials,
        memory,
      }, answer);
      processIo.stdout(pythonJsonFile(document));
      return 0;
    } catch (error) {
      processIo.stderr(
        `${commandLabel("resolve")}: ${errorMessage(error)}\n`,
      );
      return 1;
    }
  },
};
