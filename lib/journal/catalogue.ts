/**
 * The fixed line shapes of the journal (docs/journal.md#the-line-catalogue), one typed helper per
 * line.
 */
export * from "./catalogue_wake.ts";
export * from "./catalogue_engine.ts";
export * from "./catalogue_context.ts";
export * from "./catalogue_recovery.ts";
