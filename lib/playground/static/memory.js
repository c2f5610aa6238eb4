// Memory and notes (docs/playground.md#memory-and-notes): the agent's working-state notes on the
// timeline shown, and its automatic memory searched as a wake searches it.

import { get, say } from "./api.js";
import { h } from "./dom.js";
import { currentTimeline } from "./store.js";

/** Reads the notes of the timeline shown. */
export async function loadNotes() {
  const timeline = currentTimeline();
  const box = document.getElementById("notes");
  if (!timeline) return;
  try {
    const { notes } = await get(`/api/notes?timeline=${encodeURIComponent(timeline.uuid)}`);
    box.replaceChildren(
      notes.length === 0
        ? h(
          "p",
          { className: "empty" },
          `No notes on “${timeline.name}” yet: the agent keeps them with note_write.`,
        )
        : h(
          "dl",
          { className: "notes" },
          notes.flatMap((n) => [h("dt", {}, n.key), h("dd", {}, h("pre", {}, n.value))]),
        ),
    );
    say("notes-status", `${notes.length} note(s) on “${timeline.name}”.`);
  } catch (error) {
    say("notes-status", error.message);
  }
}

/** Wires the notes refresh and the memory search (once). */
export function wireMemory() {
  document.getElementById("notes-refresh").addEventListener("click", loadNotes);
  document.getElementById("memory-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const timeline = currentTimeline();
    const query = document.getElementById("memory-query").value.trim();
    if (!timeline || !query) return;
    const box = document.getElementById("memory-results");
    try {
      const found = await get(
        `/api/memory?timeline=${encodeURIComponent(timeline.uuid)}&q=${encodeURIComponent(query)}`,
      );
      if (!found.present) {
        box.replaceChildren(
          h(
            "p",
            { className: "empty" },
            "No automatic memory yet: it starts with the agent's first engaged turn.",
          ),
        );
        say("memory-status", "No memory yet.");
        return;
      }
      box.replaceChildren(
        h("h4", {}, "What a turn's brief would recall for this text"),
        found.recalled
          ? h("pre", { tabindex: "0" }, found.recalled)
          : h("p", { className: "empty" }, "Nothing: no remembered exchange matches."),
        h("h4", {}, "What memory_search would answer"),
        found.lines.length
          ? h("ol", { className: "memory-lines" }, found.lines.map((line) => h("li", {}, line)))
          : h("p", { className: "empty" }, "No matches."),
      );
      say("memory-status", `${found.lines.length} match(es) for “${query}”.`);
    } catch (error) {
      say("memory-status", error.message);
    }
  });
}
