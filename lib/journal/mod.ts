/**
 * The journal: the log grammar every module writes through. `Journal` is the contract;
 * `StreamJournal` (stderr) and `MemoryJournal` implement it; `render.ts` holds the grammar as
 * pure functions; `scrub.ts` the secret scrubber; `catalogue.ts` one helper per documented line.
 * @module
 */
export * from "./journal.ts";
export * from "./scrub.ts";
export * from "./render.ts";
export * from "./level.ts";
export * from "./stream_journal.ts";
export * from "./catalogue.ts";
