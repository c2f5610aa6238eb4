// Running one of the agent's tools alone (docs/playground.md#run-one-tool): the tools its
// configuration offers it, under the same policy, a post still judged by the outbound gate.

import { get, post, say } from "./api.js";
import { h } from "./dom.js";
import { currentTimeline } from "./store.js";

let tools = [];

/** Reads the tools the agent is offered (the first time the tab is shown). */
export async function loadTools() {
  const timeline = currentTimeline();
  if (!timeline) return;
  try {
    tools = (await get(`/api/tools?timeline=${encodeURIComponent(timeline.uuid)}`)).tools;
    const select = document.getElementById("tool-name");
    select.replaceChildren(...tools.map((t) => h("option", { value: t.name }, t.name)));
    describe();
    say("tool-status", `${tools.length} tools the agent is offered.`);
  } catch (error) {
    say("tool-status", error.message);
  }
}

function describe() {
  const name = document.getElementById("tool-name").value;
  const tool = tools.find((t) => t.name === name);
  document.getElementById("tool-about").replaceChildren(
    tool ? h("p", {}, tool.description) : "",
    tool
      ? h(
        "details",
        {},
        h("summary", {}, "Parameters (JSON Schema)"),
        h("pre", { tabindex: "0" }, JSON.stringify(tool.parameters, null, 2)),
      )
      : "",
  );
}

/** Wires the tool form (once). */
export function wireTools() {
  document.getElementById("tool-name").addEventListener("change", describe);
  document.getElementById("tool-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const timeline = currentTimeline();
    const name = document.getElementById("tool-name").value;
    const raw = document.getElementById("tool-args").value.trim() || "{}";
    let args;
    try {
      args = JSON.parse(raw);
    } catch (error) {
      say("tool-status", `The arguments are not JSON: ${error.message}`);
      return;
    }
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      say("tool-status", 'The arguments must be a JSON object, like {"key": "value"}.');
      return;
    }
    try {
      const run = await post("/api/tools/run", { timeline: timeline.uuid, name, arguments: args });
      document.getElementById("tool-result").replaceChildren(
        h(
          "p",
          {},
          "Outcome: ",
          h("span", { className: `badge ${run.outcome === "ok" ? "good" : "bad"}` }, run.outcome),
        ),
        h("pre", { tabindex: "0", className: "tool-output" }, run.result),
        run.verdicts.length
          ? h(
            "p",
            {},
            `Gate: ${
              run.verdicts.map((v) =>
                `${v.verdict}${v.checks.length ? ` (${v.checks.join(", ")})` : ""}`
              ).join("; ")
            }`,
          )
          : null,
        run.journal.length
          ? h("pre", { className: "journal small" }, run.journal.join("\n"))
          : null,
      );
      say("tool-status", `${name} ran: ${run.outcome}.`);
    } catch (error) {
      say("tool-status", error.message);
    }
  });
}
