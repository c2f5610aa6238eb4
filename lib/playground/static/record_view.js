// A wake's turn records made readable (docs/records.md#fields): what the turn read and said, the
// gate's verdicts with their check names, a waterfall of the stage latencies, tokens and cost,
// the tool calls and the chain's verdict — and the raw JSON line behind a toggle.

import { h, num, plural, usd } from "./dom.js";

/** Stages in the order a turn runs them (docs/records.md#fields); others follow in record order. */
const STAGES = ["engine", "brief", "model", "compact", "escalate"];

/** The records of one wake (the `records` and `chain` of GET /api/wakes/<id>). */
export function renderRecords(details, running) {
  const chain = details.chain;
  const verdict = chain
    ? h(
      "p",
      { className: chain.verified ? "good" : "bad" },
      chain.verified
        ? `Chain verified: ${plural(chain.chainRecords, "record")}, every hash and link intact.`
        : `Chain damaged: ${chain.problem}`,
    )
    : null;
  if (details.records.length === 0) {
    return [
      verdict,
      h("p", {}, running ? "Not yet written." : "No turn record: the wake engaged no turn."),
    ];
  }
  return [verdict, details.records.map(renderRecord)];
}

function renderRecord(record) {
  const usage = record.usage;
  const texts = record.content === "hashes"
    ? h("p", { className: "hint" }, "Written with content=hashes: texts are kept as sha256 only.")
    : null;
  return h(
    "section",
    { className: "record", "aria-label": `Turn record ${record.seq}` },
    h(
      "h4",
      {},
      `Record ${record.seq} · `,
      h(
        "span",
        { className: `badge result-${record.result ?? "none"}` },
        record.result ?? record.outcome,
      ),
      ` · ${record.model} · ${plural(record.steps, "step")}`,
    ),
    texts,
    h("h5", {}, "Inbound: what the model read"),
    h(
      "pre",
      { tabindex: "0" },
      record.inbound?.text ?? record.inbound?.text_sha256 ?? "(not recorded)",
    ),
    h("h5", {}, "Outbound: what reached the timeline"),
    outbound(record.outbound ?? []),
    h("h5", {}, "Gate verdicts"),
    verdicts(record.gate_verdicts ?? []),
    h("h5", {}, "Stages"),
    waterfall(record.latency_ms),
    h("h5", {}, "Tokens and cost"),
    h(
      "p",
      { className: "usage" },
      `${plural(usage.calls, "model call")} · in ${num(usage.tokens_in)} · out ${
        num(usage.tokens_out)
      } · cached ${num(usage.cached_tokens)} · cost ${
        usage.cost_usd === null ? "not reported by the provider" : usd(usage.cost_usd)
      }`,
    ),
    h("h5", {}, "Tool calls"),
    toolCalls(record.tool_calls),
    h(
      "details",
      { className: "raw" },
      h("summary", {}, "Raw JSON"),
      h("pre", { tabindex: "0" }, JSON.stringify(record, null, 2)),
    ),
  );
}

function outbound(posts) {
  if (posts.length === 0) return h("p", {}, "Nothing.");
  return h(
    "ul",
    { className: "posts" },
    posts.map((p) =>
      h(
        "li",
        {},
        h(
          "span",
          { className: "badge" },
          p.kind === "tool" ? "the agent said" : `the wake's ${p.kind}`,
        ),
        " ",
        h("span", { className: "body" }, p.text ?? `sha256 ${p.text_sha256}`),
      )
    ),
  );
}

function verdicts(list) {
  if (list.length === 0) return h("p", {}, "No post was tried.");
  return h(
    "table",
    { className: "verdicts" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Post"),
        h("th", { scope: "col" }, "Verdict"),
        h("th", { scope: "col" }, "Failed checks"),
      ),
    ),
    h(
      "tbody",
      {},
      list.map((v) =>
        h(
          "tr",
          {},
          h("td", {}, v.kind),
          h("td", { className: v.verdict === "passed" ? "good" : "bad" }, v.verdict),
          h("td", {}, v.checks.length ? v.checks.join(", ") : "—"),
        )
      ),
    ),
  );
}

/** One bar per stage, each starting where the one before ended, against the turn's total. */
function waterfall(latency) {
  const total = Math.max(1, latency.total ?? 0);
  const names = [
    ...STAGES.filter((s) => s in latency),
    ...Object.keys(latency).filter((s) => s !== "total" && !STAGES.includes(s)),
  ];
  let at = 0;
  const rows = names.map((name) => {
    const ms = latency[name];
    const bar = h("span", { className: `bar stage-${STAGES.includes(name) ? name : "other"}` });
    bar.style.marginLeft = `${(at / total) * 100}%`;
    bar.style.width = `${Math.max(0.5, (ms / total) * 100)}%`;
    at += ms;
    return h(
      "li",
      {},
      h("span", { className: "stage-name" }, name),
      h("span", { className: "stage-track" }, bar),
      h("span", { className: "stage-ms" }, `${num(ms)} ms`),
    );
  });
  return h(
    "div",
    { className: "waterfall" },
    h("ol", { "aria-label": `Stage latencies, ${num(latency.total ?? 0)} ms in all` }, rows),
    h("p", { className: "hint" }, `total ${num(latency.total ?? 0)} ms`),
  );
}

function toolCalls(calls) {
  if (calls.length === 0) return h("p", {}, "None.");
  return h(
    "ol",
    { className: "calls" },
    calls.map((c) =>
      h(
        "li",
        {},
        `${c.name}${c.action ? `/${c.action}` : ""} `,
        h("span", { className: `badge ${c.outcome === "ok" ? "good" : "bad"}` }, c.outcome),
        c.truncated ? " (cut at 4,000 characters)" : "",
      )
    ),
  );
}
