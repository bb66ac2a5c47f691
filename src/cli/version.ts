// Imported, not read at run time: the bundler embeds it, so the compiled binary knows its version.
import pkg from "../../package.json" with { type: "json" };

/** package.json's version, printed by `--version`. */
export const VERSION: string = pkg.version;
