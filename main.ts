/** `harness`: the command-line entry point. All logic lives in lib/cli. */
import { main } from "./lib/cli/main.ts";

Deno.exit(await main(Deno.args));
