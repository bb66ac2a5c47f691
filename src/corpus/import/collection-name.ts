/** The collection `--collection` defaults to (docs/decisions/0052-collection-ids-and-names.md). */
export const DEFAULT_COLLECTION = "default";

// A name becomes part of `local:<collection>/<doc_id>` references and of shell commands:
// a slash or a space there would make the reference ambiguous or the command awkward.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why `name` cannot name a collection, or null when it can. */
export function collectionNameProblem(name: string): string | null {
  return NAME.test(name)
    ? null
    : `invalid collection name "${name}": 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit`;
}
