// The context view (docs/playground.md#the-context-view): each turn's first request as a stacked
// bar and a list of its parts, in request order, with the part the provider served from its cache
// marked, and the prefix diff against the request before it on the same timeline.

import { h, num, pct, plural } from "./dom.js";
import { store } from "./store.js";

/** What each part is called on the page. */
const LABELS = {
  tools: "Tool declarations",
  charter: "Charter",
  knowledge: "Knowledge",
  transcript: "Frozen transcript",
  brief: "Brief",
  recall: "Recalled memory",
  working_state: "Working state",
  new_turn: "New turn",
};

const label = (name) => LABELS[name] ?? name.replaceAll("_", " ");
const colour = (name) => (name in LABELS ? `p-${name}` : "p-other");

/** The view of one wake's requests (the answer of GET /api/wakes/<id>/context). */
export function renderContext(requests, wake) {
  if (requests.length === 0) {
    return h(
      "p",
      {},
      wake.finishedAt === null
        ? "The wake is still running."
        : "No request: the wake engaged no turn (an idle wake sends nothing to the model).",
    );
  }
  return requests.map((request, i) => renderRequest(request, i, requests.length));
}

function renderRequest(request, i, count) {
  const cached = request.cachedTokens;
  const counted = request.tokenSource === "provider"
    ? "the provider's count for the first call, shared out by characters"
    : "estimated at 4 characters a token: the provider reported no count";
  const cacheLine = cached === null
    ? "The provider reported no cached tokens for this call."
    : cached === 0
    ? "The provider served none of it from its prompt cache."
    : `The provider served ${num(cached)} tokens (${
      pct(cached, request.totalTokens)
    }) from its prompt cache: the parts marked cached.`;
  const written = request.firstCall?.cache_write_tokens;
  const writeLine = written
    ? ` It wrote ${num(written)} tokens to the cache for later requests.`
    : "";
  return h(
    "section",
    { className: "request", "aria-label": `Request of turn ${i + 1}` },
    count > 1 ? h("h4", {}, `Turn ${i + 1} of ${count} · record ${request.seq}`) : null,
    h(
      "p",
      { className: "request-summary" },
      `The turn's first request: ${num(request.totalTokens)} tokens (${counted}) in ${
        num(request.totalChars)
      } characters, to ${request.model}. ${cacheLine}${writeLine}`,
    ),
    stack(request),
    partList(request),
    prefixDiff(request.diff),
    request.captured ? null : h(
      "p",
      { className: "hint" },
      "Texts were not captured for this request (HARNESS_CAPTURE_REQUESTS was off): sizes and hashes only.",
    ),
  );
}

/** The stacked bar: one segment per part, sized by tokens, and a mark where the cache ends. */
function stack(request) {
  const total = Math.max(1, request.totalTokens);
  const segments = request.parts.filter((p) => p.tokens > 0).map((part) => {
    const seg = h("span", {
      className: `seg ${colour(part.name)}${part.cached === "none" ? "" : " is-cached"}`,
      title: `${label(part.name)}: ${num(part.tokens)} tokens`,
    });
    seg.style.flexGrow = String(part.tokens);
    return seg;
  });
  const described = request.parts.map((p) => `${label(p.name)} ${num(p.tokens)}`).join(", ");
  const bar = h(
    "div",
    {
      className: "stack",
      role: "img",
      "aria-label": `Request parts in tokens: ${described}${
        request.cachedTokens ? `; the first ${num(request.cachedTokens)} cached` : ""
      }`,
    },
    segments,
  );
  if (request.cachedTokens) {
    const mark = h(
      "span",
      { className: "cache-mark", "aria-hidden": "true" },
      h("span", {}, "cached ◂"),
    );
    mark.style.left = `${Math.min(100, (request.cachedTokens / total) * 100)}%`;
    bar.append(mark);
  }
  return bar;
}

function partList(request) {
  return h(
    "ol",
    { className: "parts" },
    request.parts.map((part) => {
      const cache = { all: "cached", part: "partly cached", none: "" }[part.cached];
      const size = `${num(part.tokens)} tokens · ${num(part.chars)} chars${
        part.messages === null ? "" : ` · ${plural(part.messages, "message")}`
      }`;
      const summary = h(
        "summary",
        {},
        h("span", { className: `swatch ${colour(part.name)}`, "aria-hidden": "true" }),
        h("span", { className: "part-name" }, label(part.name)),
        h("span", { className: "part-size" }, size),
        cache ? h("span", { className: "badge cached" }, cache) : null,
      );
      const body = part.text === null
        ? h("p", { className: "hint" }, `Not captured. sha256 ${part.sha256}`)
        : part.text === ""
        ? h("p", { className: "hint" }, "Empty in this request.")
        : [
          h("pre", { className: "part-text", tabindex: "0" }, part.text),
          part.omitted
            ? h(
              "p",
              { className: "hint" },
              `${num(part.omitted)} characters in the middle are not shown.`,
            )
            : null,
        ];
      return h("li", {}, h("details", { className: `part ${colour(part.name)}` }, summary, body));
    }),
  );
}

function wakeOfDelivery(delivery) {
  const wake = store.state.wakes.find((w) => w.id === delivery);
  return wake ? `wake ${wake.n}` : "an earlier wake";
}

const SENTENCES = {
  first: () => "The first recorded request on this timeline: there is nothing to compare it with.",
  identical: () => "Identical to the previous request, byte for byte.",
  tail: (d) =>
    `As designed: everything the previous request held before its ${
      label(d.previousPart ?? "tail")
    } — ` +
    "tools, charter, frozen transcript — is still this request's prefix, so the provider can reuse its cache up to there.",
  break: (d) =>
    `The prefix breaks in the ${
      label(d.part ?? "request").toLowerCase()
    }: this request differs from the previous one inside ` +
    "its stable prefix, so no cache reaches past this point.",
  unknown: () =>
    "Only whole parts can be compared (a text was not captured); the stable parts that could be compared are unchanged.",
};

/** The prefix diff: where this request first differs from the previous one, and the text there. */
function prefixDiff(diff) {
  const against = diff.previous
    ? `the previous request on this timeline (record ${diff.previous.seq}, ${
      wakeOfDelivery(diff.previous.delivery)
    })`
    : "the previous request";
  const parts = [
    h("h5", {}, `Prefix diff against ${against}`),
    h("p", { className: "diff-verdict" }, SENTENCES[diff.kind](diff)),
  ];
  if (diff.offset !== null && diff.part !== null) {
    parts.push(h(
      "p",
      {},
      `First difference after ${num(diff.offset)} shared characters, in this request's `,
      h("strong", {}, label(diff.part)),
      diff.previousPart
        ? [" (the previous request had its ", h("strong", {}, label(diff.previousPart)), " there)."]
        : ".",
    ));
    parts.push(h(
      "div",
      { className: "diff-cols" },
      excerpt("Shared text just before", diff.shared, false),
      excerpt("The previous request went on", diff.before, true),
      excerpt("This request goes on", diff.after, true),
    ));
  } else if (diff.part) {
    parts.push(h("p", {}, "Changed: ", h("strong", {}, label(diff.part)), "."));
  }
  if (diff.sameParts.length) {
    parts.push(
      h("p", { className: "hint" }, `Unchanged parts: ${diff.sameParts.map(label).join(", ")}.`),
    );
  }
  return h("div", { className: `prefix-diff kind-${diff.kind}` }, parts);
}

function excerpt(title, text, markFirst) {
  const body = text ?? "";
  const content = markFirst && body
    ? [h("mark", {}, body.slice(0, 1)), body.slice(1)]
    : body || "(nothing)";
  return h("figure", {}, h("figcaption", {}, title), h("pre", { tabindex: "0" }, content));
}
