import { closest } from "../util/edit-distance.ts";

/**
 * Variables read beside the schema's: the CLI's (RQ_PASSWORD for `account create`, RQ_API_KEY for
 * `mcp --server`). Known names are never a near miss of another one (RQ_API_KEY is two edits
 * from GROQ_API_KEY).
 */
const OTHER_VARIABLES = ["RQ_PASSWORD", "RQ_API_KEY"] as const;

/** Edits a name may be from a known one and still be taken for its typo: fewer for short names. */
const within = (name: string) => (name.length >= 8 ? 2 : 1);

/**
 * "unknown variable SEARXNG_ULR in .env; did you mean SEARXNG_URL?" for each name that is not
 * ours but a typo of one of ours, which would otherwise be ignored without a word. A `.env`
 * holds settings, so any name there counts; the environment holds everyone's, so only names
 * shaped like ours (an underscore, six characters or more: HOME is two edits from HOST) do.
 * A warning, never a refusal: an unrelated variable must not stop a start
 * (docs/decisions/0146-configuration-errors-in-plain-words.md).
 */
export function nearMisses(
  known: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  fromFile: Readonly<Record<string, string>>,
): string[] {
  const ours = new Set<string>([...known, ...OTHER_VARIABLES]);
  const found = new Map<string, string>();
  const look = (name: string, where: string) => {
    if (ours.has(name) || found.has(name)) return;
    const meant = closest(name, [...ours], within(name));
    if (meant) found.set(name, `unknown variable ${name}${where}; did you mean ${meant}?`);
  };
  for (const name of Object.keys(fromFile)) look(name, " in .env");
  for (const name of Object.keys(env)) if (name.includes("_") && name.length >= 6) look(name, "");
  return [...found.values()];
}
