/**
 * Tool resolution over the embedded defaults (the `harness resolve` candidate set): the benign
 * default set on every provider, each opt-in stem's resolved names
 * (docs/tools.md#the-shipped-stems), `--only`, unknown stems, provider exclusion, the policy gate,
 * and "not available in this runtime".
 */
import assert from "node:assert/strict";
import { RUNTIME_VOCABULARY, type ToolVocabulary } from "../../lib/config/tool_vocabulary.ts";
import { SHIPPED_STEMS } from "../../lib/config/overlay.ts";
import { UnknownStemError } from "../../lib/config/stems.ts";
import { resolveTools, type ResolveToolsInput } from "../../lib/config/tool_resolution.ts";
import { BENIGN_TOOLS } from "../support/benign_tools.ts";

const BENIGN_SET = BENIGN_TOOLS;

/**
 * Every tool implemented, every built-in wired: the mapping of docs/tools.md#the-shipped-stems
 * without this runtime's gaps.
 */
const FULL: ToolVocabulary = {
  tools: Object.fromEntries(
    Object.entries(RUNTIME_VOCABULARY.tools).map(([name, tool]) => [name, {
      ...tool,
      implemented: true,
    }]),
  ),
  builtins: Object.fromEntries(Object.keys(RUNTIME_VOCABULARY.builtins).map((n) => [n, true])),
};

const CELLS = {
  openai: { provider: "openai", sdk: "openai", surface: "responses" },
  xai: { provider: "xai", sdk: "openai", surface: "responses" },
  openrouter: { provider: "openrouter", sdk: "openrouter", surface: "chat" },
} as const;

function resolve(overrides: Partial<ResolveToolsInput> = {}) {
  return resolveTools({
    ...CELLS.openai,
    profile: "locked",
    overlay: null,
    memoryTools: ["memory"],
    assumeCredentials: true,
    ...overrides,
  });
}

Deno.test("a default resolution on every provider is exactly the benign set + memory", () => {
  for (const cell of Object.values(CELLS)) {
    const answer = resolve(cell);
    assert.deepEqual(answer.tools, BENIGN_SET, cell.provider);
    assert.deepEqual(answer.builtins, []);
    assert.deepEqual(answer.optInTools, []);
    assert.deepEqual(answer.skipped, []);
    assert.deepEqual(answer.safetyNotices, []);
    assert.deepEqual(answer.defects, []);
    assert.equal(answer.overlayToolStems, null);
    assert.deepEqual(Object.keys(answer.stems), SHIPPED_STEMS);
    for (const [stem, entry] of Object.entries(answer.stems)) {
      if (entry.optIn) {
        assert.equal(entry.status, "excluded", stem);
        assert.equal(entry.reason, "powerful (opt-in) tool not granted; pass --opt-in to grant it");
      } else assert.equal(entry.status, "active", stem);
    }
  }
});

Deno.test("each opt-in stem resolves to the documented names on its provider", () => {
  const cases: [keyof typeof CELLS, string, string[], string[]][] = [
    ["openai", "web_search", [], ["web_search"]],
    ["openai", "code_execution", ["code_attach"], ["code_interpreter"]],
    ["openai", "generate_image", ["generate_image"], []],
    ["openai", "edit_image", ["edit_image"], []],
    ["openai", "hear_audio", ["listen"], []],
    ["openai", "system_prompt", ["system_prompt_edit", "system_prompt_read"], []],
    ["openai", "send_direct_message_to_origin", ["send_direct_message_to_origin"], []],
    ["xai", "xai_search", [], ["web_search", "x_search"]],
    ["xai", "code_execution", [], ["code_execution"]],
    ["xai", "grok_generate_image", ["grok_generate_image"], []],
    ["xai", "grok_edit_image", ["grok_edit_image"], []],
    ["xai", "grok_generate_video", ["grok_generate_video"], []],
    ["xai", "xai_account_balance", ["xai_account_balance"], []],
    ["openrouter", "openrouter_search", [], ["web_search"]],
  ];
  for (const [cell, stem, tools, builtins] of cases) {
    const answer = resolve({ ...CELLS[cell], optIn: [stem], vocabulary: FULL });
    const entry = answer.stems[stem];
    assert.equal(entry.status, "active", `${cell} ${stem}: ${entry.reason}`);
    assert.deepEqual(entry.tools, tools, stem);
    assert.deepEqual(entry.builtins, builtins, stem);
    assert.deepEqual(answer.optInTools, [stem]);
    assert.deepEqual(answer.builtins, builtins);
    assert.deepEqual(answer.tools, [...BENIGN_SET, ...tools].sort());
  }
});

Deno.test("the manifest name of code_execution on OpenAI is not its wire name", () => {
  const answer = resolve({ optIn: ["code_execution"] });
  assert.deepEqual(answer.builtins, ["code_interpreter"]);
  assert.deepEqual(answer.builtinNames, ["code_execution"]);
  assert.ok(answer.notes.some((n) => n.name === "code_execution" && n.note?.includes("sandbox")));
  // The xAI variant is inactive but the name is claimed: skipped, yet no INFO line for it.
  assert.ok(
    answer.skipped.some((s) =>
      s.name === "code_execution" && s.reason === "needs the 'xai' provider (AI_PROVIDER=xai)"
    ),
  );
  assert.deepEqual(answer.inactive, []);
});

Deno.test("code_execution: the built-in and code_attach under OpenAI, the xAI built-in alone under xAI", () => {
  const openai = resolve({ optIn: ["code_execution"] });
  assert.equal(openai.stems.code_execution.status, "active");
  assert.ok(openai.tools.includes("code_attach"));
  assert.deepEqual(openai.builtins, ["code_interpreter"]);
  assert.ok(!openai.skipped.some((s) => s.reason.startsWith("not available in this runtime")));
  const xai = resolve({ ...CELLS.xai, optIn: ["code_execution"] });
  assert.equal(xai.stems.code_execution.status, "active");
  assert.deepEqual(xai.builtins, ["code_execution"]);
  assert.ok(!xai.tools.includes("code_attach"));
  assert.ok(
    xai.notes.some((n) => n.name === "code_execution" && /compute only/.test(n.note ?? "")),
  );
});

Deno.test("xai_account_balance resolves under xAI only", () => {
  const xai = resolve({ ...CELLS.xai, optIn: ["xai_account_balance"] });
  assert.ok(xai.tools.includes("xai_account_balance"));
  assert.equal(xai.stems.xai_account_balance.status, "active");
  const openai = resolve({ optIn: ["xai_account_balance"] });
  assert.ok(!openai.tools.includes("xai_account_balance"));
  assert.equal(openai.stems.xai_account_balance.status, "excluded");
});

Deno.test("send_direct_message_to_origin resolves when NTFY_DM_TOKEN is set, else names it", () => {
  const set = resolve({
    optIn: ["send_direct_message_to_origin"],
    assumeCredentials: false,
    env: { NTFY_DM_TOKEN: "t" },
  });
  assert.ok(set.tools.includes("send_direct_message_to_origin"));
  assert.equal(set.stems.send_direct_message_to_origin.status, "active");
  assert.deepEqual(set.optInTools, ["send_direct_message_to_origin"]);
  const unset = resolve({
    optIn: ["send_direct_message_to_origin"],
    assumeCredentials: false,
    env: {},
  });
  assert.ok(!unset.tools.includes("send_direct_message_to_origin"));
  assert.equal(unset.stems.send_direct_message_to_origin.status, "inactive");
  assert.match(unset.stems.send_direct_message_to_origin.reason ?? "", /needs NTFY_DM_TOKEN set/);
});

Deno.test("the OpenAI media stems resolve to their tools under openai and are excluded elsewhere", () => {
  const stems = ["generate_image", "edit_image", "hear_audio"];
  const answer = resolve({ optIn: stems });
  for (const tool of ["generate_image", "edit_image", "listen"]) {
    assert.ok(answer.tools.includes(tool), tool);
  }
  for (const stem of stems) assert.equal(answer.stems[stem].status, "active", stem);
  const xai = resolve({ ...CELLS.xai, optIn: stems });
  for (const stem of stems) {
    assert.notEqual(xai.stems[stem].status, "active", stem);
    assert.ok(!xai.tools.includes(stem === "hear_audio" ? "listen" : stem), stem);
  }
});

Deno.test("provider-mismatched stems are excluded, not loaded", () => {
  const answer = resolve({ optIn: ["xai_search", "grok_generate_video", "openrouter_search"] });
  for (const stem of ["xai_search", "grok_generate_video", "openrouter_search"]) {
    assert.equal(answer.stems[stem].status, "excluded");
    assert.equal(answer.stems[stem].reason, "not relevant to the 'openai' provider");
    assert.equal(answer.stems[stem].granted, true);
  }
  assert.deepEqual(answer.skipped, []);
  assert.ok(answer.excludedStems.some((e) => e.stem === "xai_search"));
});

Deno.test("a relevant stem with unmet requirements is inactive with deduplicated reasons", () => {
  const chat = resolve({ surface: "chat", optIn: ["web_search", "code_execution"] });
  assert.equal(chat.stems.web_search.status, "inactive");
  assert.equal(chat.stems.web_search.reason, "needs the OpenAI 'responses' surface");
  assert.equal(
    chat.stems.code_execution.reason,
    "needs the OpenAI 'responses' surface; needs the 'xai' provider (AI_PROVIDER=xai)",
  );
  assert.ok(chat.inactive.includes(
    "Tool plugin 'web_search' inactive: needs the OpenAI " +
      "'responses' surface.",
  ));
  // openrouter_search over the openai SDK self-excludes.
  const cell = { provider: "openrouter", sdk: "openai", surface: "chat" };
  const viaOpenai = resolve({ ...cell, optIn: ["openrouter_search"] });
  assert.equal(
    viaOpenai.stems.openrouter_search.reason,
    "needs the 'openrouter' SDK (AI_SDK=openrouter)",
  );
});

Deno.test("credentials: assumed ones are named; absent ones deactivate with the documented reason", () => {
  const stems = ["send_direct_message_to_origin", "generate_image"];
  const assumed = resolve({ optIn: stems, vocabulary: FULL });
  assert.deepEqual(assumed.credentialVars, ["AI_API_KEY", "NTFY_DM_TOKEN"]);
  assert.deepEqual(assumed.stems.send_direct_message_to_origin.assumesCredential, [
    "NTFY_DM_TOKEN",
  ]);
  const absent = resolve({ optIn: stems, vocabulary: FULL, assumeCredentials: false });
  assert.equal(absent.stems.send_direct_message_to_origin.reason, "needs NTFY_DM_TOKEN set");
  assert.equal(
    absent.stems.generate_image.reason,
    "needs the openai provider (AI_PROVIDER=openai) and an API key (AI_API_KEY)",
  );
  const real = resolve({
    optIn: stems,
    vocabulary: FULL,
    assumeCredentials: false,
    env: {
      NTFY_DM_TOKEN: "t",
    },
  });
  assert.equal(real.stems.send_direct_message_to_origin.status, "active");
});

Deno.test("shell is refused by the locked policy and allowed when unlocked", () => {
  const locked = resolve({ optIn: ["shell"], vocabulary: FULL });
  assert.ok(!locked.tools.includes("shell"));
  const reason = "refused by the safe-by-default policy: needs shell";
  assert.deepEqual(locked.skipped, [{ name: "shell", stem: "shell", reason }]);
  assert.deepEqual(locked.safetyNotices, [`Tool 'shell' ${reason}; not loaded.`]);
  assert.deepEqual(locked.warnings, [`Tool 'shell' ${reason}; not loaded.`]);
  assert.equal(locked.stems.shell.status, "inactive");
  assert.equal(locked.stems.shell.reason, reason);
  // Opt-in inventory is computed before the policy filter.
  assert.deepEqual(locked.optInTools, ["shell"]);
  const unlocked = resolve({ optIn: ["shell"], vocabulary: FULL, profile: "unlocked" });
  assert.ok(unlocked.tools.includes("shell"));
  assert.deepEqual(unlocked.safetyNotices, []);
  // This runtime implements shell: the policy alone decides.
  assert.equal(resolve({ optIn: ["shell"] }).stems.shell.reason, reason);
  assert.equal(resolve({ optIn: ["shell"], profile: "unlocked" }).stems.shell.status, "active");
});

Deno.test("a runtime veto refuses a tool with its own text", () => {
  const answer = resolve({
    optIn: ["shell"],
    vocabulary: FULL,
    profile: "unlocked",
    loadRefusals: { shell: "running as root" },
  });
  assert.deepEqual(answer.safetyNotices, [
    "Tool 'shell' refuses to load in this runtime: running as root; not loaded.",
  ]);
});

Deno.test("--only restricts the candidates and grants the powerful stems it names", () => {
  const answer = resolve({ only: ["messages", "web_search"] });
  assert.deepEqual(answer.tools, ["memory", "messages"]);
  assert.deepEqual(answer.builtins, ["web_search"]);
  assert.equal(answer.stems.assets.status, "excluded");
  assert.equal(answer.stems.assets.reason, "not in --only");
  assert.equal(
    answer.stems.shell.reason,
    "powerful (opt-in) tool not granted; pass --opt-in to grant it",
  );
  assert.equal(answer.stems.web_search.granted, true);
});

Deno.test("an unknown stem is an error naming the shipped stems; .py is tolerated", () => {
  assert.throws(
    () => resolve({ optIn: ["x_search"] }),
    (error: Error) =>
      error instanceof UnknownStemError &&
      error.message.startsWith(
        "No shipped tool plugin is named: x_search. Did you mean 'xai_search' for " +
          "'x_search'? The shipped stems are: anthropic_search, assets, code_execution,",
      ) &&
      error.message.includes("not a tool name it resolves to"),
  );
  assert.throws(() => resolve({ only: ["nope"] }), UnknownStemError);
  assert.deepEqual(resolve({ optIn: ["web_search.py"] }).builtins, ["web_search"]);
});

Deno.test("memory tools merge after the plugins, deduplicated by name", () => {
  const answer = resolve({ memoryTools: ["memory", "memory", "recall"] });
  assert.deepEqual(answer.activeTools.slice(-2).map((t) => [t.name, t.tool, t.stem]), [
    ["memory", null, null],
    ["recall", null, null],
  ]);
  assert.equal(answer.tools.filter((name) => name === "memory").length, 1);
});

Deno.test("active tools carry what the wake needs to build them, in claiming order", () => {
  const answer = resolve();
  assert.deepEqual(answer.activeTools[0], {
    name: "assets",
    tool: "assets",
    options: {},
    stem: "assets",
    note: null,
  });
  const lock = answer.notes.find((n) => n.name === "lock");
  assert.match(lock?.note ?? "", /^one-way and irreversible/);
});

Deno.test("under host rules the vendor-fetching built-ins are refused, with the reason", () => {
  const file = "/cfg/host_rules.json";
  const cases: [keyof typeof CELLS, string, string[]][] = [
    ["openai", "web_search", ["web_search"]],
    ["xai", "xai_search", ["web_search", "x_search"]],
    ["xai", "code_execution", ["code_execution"]],
    ["openrouter", "openrouter_search", ["web_search"]],
  ];
  for (const [cell, stem, builtins] of cases) {
    const free = resolve({ ...CELLS[cell], optIn: [stem], vocabulary: FULL });
    assert.deepEqual(free.builtins, builtins, `${stem} is active without rules`);
    const fenced = resolve({ ...CELLS[cell], optIn: [stem], vocabulary: FULL, hostRules: file });
    assert.deepEqual(fenced.builtins, [], stem);
    for (const builtin of builtins) {
      const skipped = fenced.skipped.find((item) => item.stem === stem);
      assert.ok(skipped, `${stem} is in the skip trail`);
      assert.match(
        fenced.skipped.map((item) => item.reason).join("\n"),
        new RegExp(`refused under the host rules in ${file}: the '${builtin}' built-in fetches`),
      );
    }
  }
  // OpenAI's code interpreter runs without network access: it stays.
  const code = resolve({ optIn: ["code_execution"], vocabulary: FULL, hostRules: file });
  assert.deepEqual(code.builtins, ["code_interpreter"]);
});
