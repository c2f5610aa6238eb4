// Trying a change before it ships (docs/playground.md#try-a-change): edit a draft copy of the
// agent's charter, guardrails or knowledge files, replay its last recorded turns against the
// draft — offline, nothing sent — and read the replay's diff beside the record.

import { get, post, say } from "./api.js";
import { h, num, plural } from "./dom.js";
import { currentTimeline } from "./store.js";

let files = [];
let chosen = null;

/** Loads the draft's files into the editor (the first time the tab is shown, and on reset). */
export async function loadDrafts() {
  try {
    const answer = await get("/api/drafts");
    files = answer.files;
    document.getElementById("draft-dir").textContent = answer.dir;
    chosen ??= files[0]?.path ?? null;
    renderFiles();
  } catch (error) {
    say("draft-status", error.message);
  }
}

function renderFiles() {
  const select = document.getElementById("draft-file");
  select.replaceChildren(
    ...files.map((f) =>
      h(
        "option",
        { value: f.path },
        `${f.path}${f.changed ? " (changed)" : ""}${f.exists ? "" : " (new)"}`,
      )
    ),
  );
  if (chosen) select.value = chosen;
  const file = files.find((f) => f.path === chosen);
  const editor = document.getElementById("draft-text");
  editor.value = file?.text ?? "";
  document.getElementById("draft-label").textContent = `Draft of ${chosen ?? "—"}`;
}

/** Wires the editor and the replay form (once). */
export function wireDrafts() {
  document.getElementById("draft-file").addEventListener("change", (event) => {
    chosen = event.target.value;
    renderFiles();
  });
  document.getElementById("draft-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = document.getElementById("draft-text").value;
    try {
      await post("/api/drafts", { path: chosen, text });
      const file = files.find((f) => f.path === chosen);
      if (file) Object.assign(file, { text, exists: true, changed: true });
      renderFiles();
      say("draft-status", `Draft of ${chosen} saved. The live config home is unchanged.`);
    } catch (error) {
      say("draft-status", error.message);
    }
  });
  document.getElementById("draft-reset").addEventListener("click", async () => {
    try {
      files = (await post("/api/drafts/reset", null)).files;
      renderFiles();
      say("draft-status", "The draft was thrown away and made again from the live config home.");
    } catch (error) {
      say("draft-status", error.message);
    }
  });
  document.getElementById("replay-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const timeline = currentTimeline();
    if (!timeline) return;
    const last = Number(document.getElementById("replay-last").value);
    const button = document.getElementById("replay-run");
    button.disabled = true;
    say("replay-status", `Replaying the last ${plural(last, "turn")} against the draft…`);
    try {
      const report = await post("/api/replay", { timeline: timeline.uuid, last });
      renderReport(report);
      say("replay-status", summaryLine(report));
    } catch (error) {
      say("replay-status", error.message);
    } finally {
      button.disabled = false;
    }
  });
}

function summaryLine(report) {
  const s = report.summary;
  if (s.selected === 0) return "No recorded turn on this timeline yet: post a message first.";
  return `Replayed ${plural(s.replayed, "turn")} (${s.skipped} skipped, ${s.failed} failed): ${
    plural(s.changed, "changed turn", "changed turns")
  }; spoke ${s.spoke_before} → ${s.spoke_after}; gate refusals ${s.refusals_before} → ${s.refusals_after}.`;
}

function renderReport(report) {
  const box = document.getElementById("replay-report");
  const charter = report.turns.some((t) => !t.same_charter)
    ? "The draft's charter differs from the recorded one."
    : "The draft's charter is the recorded one.";
  box.replaceChildren(
    h(
      "p",
      { className: "hint" },
      `${charter} Model: ${report.against.model} (offline, nothing sent).`,
    ),
    ...report.turns.map(renderTurn),
  );
}

function side(title, s, diff) {
  if (!s) return h("div", { className: "side" }, h("h5", {}, title), h("p", {}, "—"));
  const verdicts = s.verdicts.length
    ? s.verdicts.map((v) => `${v.verdict}${v.checks.length ? ` (${v.checks.join(", ")})` : ""}`)
      .join("; ")
    : "no post tried";
  return h(
    "div",
    { className: `side ${diff?.spoke_changed ? "changed" : ""}` },
    h("h5", {}, title),
    h(
      "p",
      {},
      h("span", { className: `badge result-${s.result}` }, s.spoke ? "spoke" : "silent"),
      ` · ${s.model}`,
    ),
    s.texts.length
      ? s.texts.map((t) => h("blockquote", {}, t))
      : h("p", { className: "hint" }, "Said nothing."),
    h("p", { className: "small" }, `Tool calls: ${s.tool_calls.join(", ") || "none"}`),
    h("p", { className: "small" }, `Gate: ${verdicts}`),
    h("p", { className: "small" }, `Tokens in ${num(s.tokens_in)} · out ${num(s.tokens_out)}`),
  );
}

function renderTurn(turn) {
  const diff = turn.diff;
  const head = turn.status !== "replayed"
    ? `${turn.status}: ${turn.reason ?? ""}`
    : diff.changed
    ? `changed — ${
      [
        diff.spoke_changed ? "spoke/silent" : null,
        diff.text_changed ? "text" : null,
        diff.tools_changed ? "tool calls" : null,
        diff.verdicts_changed ? "verdicts" : null,
      ].filter(Boolean).join(", ")
    }; similarity ${diff.similarity.toFixed(2)}`
    : `unchanged; similarity ${diff.similarity.toFixed(2)}`;
  return h(
    "article",
    {
      className: `replay-turn ${diff?.changed ? "changed" : ""}`,
      "aria-label": `Recorded turn ${turn.seq}`,
    },
    h("h4", {}, `Turn ${turn.seq} · ${new Date(turn.at).toLocaleTimeString()} · ${head}`),
    h(
      "div",
      { className: "sides" },
      side("Recorded", turn.original, diff),
      side("Replayed against the draft", turn.replay, diff),
    ),
  );
}
