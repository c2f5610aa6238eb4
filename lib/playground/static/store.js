// The page's copy of the server's state: the snapshot sent when the event stream opens, updated
// by each `update` event, and what the reader chose (the timeline shown, the seat posting).

export const store = {
  /** The snapshot (docs/playground.md#the-page); null until the stream opens. */
  state: null,
  /** The uuid of the timeline shown; null means the first. */
  selected: null,
  /** The handle of the human seat the composer posts as; null means the first. */
  seat: null,
};

/** The timeline the page shows. */
export function currentTimeline() {
  const state = store.state;
  if (!state || state.timelines.length === 0) return null;
  return state.timelines.find((t) => t.uuid === store.selected) ?? state.timelines[0];
}

/** The human seat the composer posts as. */
export function currentSeat() {
  const humans = store.state?.humans ?? [];
  return humans.find((h) => h.handle === store.seat) ?? humans[0] ?? null;
}
