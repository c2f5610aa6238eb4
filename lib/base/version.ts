/**
 * The product's identity, read from deno.json so there is one place to bump a release.
 * A JSON import is embedded by `deno compile`, so the compiled binary knows its version too.
 */
import manifest from "../../deno.json" with { type: "json" };

/** The running harness version (semver), e.g. `0.1.0`. */
export const VERSION: string = manifest.version;

/** The product name used in the User-Agent and in `harness version`. */
export const PRODUCT = "basecradle-harness-deno";

/** The User-Agent every outbound platform call carries. */
export const USER_AGENT = `${PRODUCT}/${VERSION}`;
