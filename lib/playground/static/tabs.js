// The studio's tabs (WAI-ARIA tabs pattern): one tab stop, Left/Right/Home/End move between the
// tabs, and each panel is shown when its tab is chosen. A panel may load what it shows the first
// time it is shown.

/** Wires the tablist `list`; `onShow(id)` is called when a panel is shown. */
export function wireTabs(list, onShow) {
  const tabs = [...list.querySelectorAll('[role="tab"]')];
  const select = (tab, focus) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
    }
    if (focus) tab.focus();
    onShow(tab.getAttribute("aria-controls"));
  };
  for (const tab of tabs) {
    tab.addEventListener("click", () => select(tab, false));
    tab.addEventListener("keydown", (event) => {
      const at = tabs.indexOf(tab);
      const next = {
        ArrowRight: tabs[(at + 1) % tabs.length],
        ArrowLeft: tabs[(at - 1 + tabs.length) % tabs.length],
        Home: tabs[0],
        End: tabs[tabs.length - 1],
      }[event.key];
      if (!next) return;
      event.preventDefault();
      select(next, true);
    });
  }
  select(tabs.find((t) => t.getAttribute("aria-selected") === "true") ?? tabs[0], false);
}
