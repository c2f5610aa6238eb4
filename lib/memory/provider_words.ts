/**
 * The words `HARNESS_MEMORY_PROVIDER` may name a built-in provider by (a module path is the other
 * form): the loader binds them, and the command line completes and lists the same words. Plain
 * data, so naming the words loads no provider.
 */

/** The automatic provider's names in `HARNESS_MEMORY_PROVIDER`. */
export const RECALL_NAMES = ["recall", "mempalace"] as const;

/** Every provider named by word: the sqlite store (the default), then the automatic provider. */
export const MEMORY_PROVIDER_WORDS = ["sqlite", ...RECALL_NAMES] as const;
