/** The fixed line shapes of the journal (contract §7.2), one typed helper per line. */
export * from "./catalogue_wake.ts";
export * from "./catalogue_engine.ts";
export * from "./catalogue_context.ts";
export * from "./catalogue_recovery.ts";
