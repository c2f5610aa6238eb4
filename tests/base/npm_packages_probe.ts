/** Prints what the kit's install check says about `openai` in this process (see the test). */
import { packageInstalled } from "../../lib/base/npm_packages.ts";

console.log(JSON.stringify(packageInstalled("openai") ?? null));
