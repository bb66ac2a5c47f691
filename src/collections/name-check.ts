import { COLLECTION_NAME_RULE } from "../contract/collections.ts";
import { AppError } from "../contract/errors.ts";
import { collectionNameProblem } from "../corpus/import/collection-name.ts";

// Control and invisible format characters (zero-width, bidi overrides): they would make a name
// that reads as another one in the Console and in `local:` references.
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const MARKUP = /[<>&"'`]/;
const PATH = /[/\\]/;
const SPACE = /\s/u;
const FIRST = /^[A-Za-z0-9]/;
const OTHER = /[^A-Za-z0-9._-]/u;

/**
 * What is wrong with a name, in words a person can act on; null when it is a good name.
 * The rule itself is the importer's (src/corpus/import/collection-name.ts), so the CLI and the
 * Console accept the same names; this only says which part of it a name breaks. The name is
 * never echoed: it may hold control characters or markup (threat: a crafted name written back
 * into a log line or a page that shows the message).
 */
export function nameProblem(name: string): string | null {
  if (collectionNameProblem(name) === null) return null;
  const chars = [...name];
  if (chars.length === 0) return "the name is empty";
  if (INVISIBLE.test(name)) return "the name contains a control or invisible character";
  if (MARKUP.test(name)) return "the name contains markup characters (<, >, &, quotes)";
  if (PATH.test(name)) return 'the name contains "/" or "\\" (collection names are not paths)';
  if (SPACE.test(name)) return "the name contains white space";
  if (chars.length > 64) return `the name is ${chars.length} characters long (at most 64)`;
  if (!FIRST.test(name)) return "the name must start with a letter or digit";
  const other = OTHER.exec(name)?.[0];
  if (other) return `the name contains "${other}", which a name may not`;
  return "the name is not a collection name";
}

/** Throws 400 invalid_collection_name naming the problem, unless `name` is a good name. */
export function checkName(name: string): void {
  const problem = nameProblem(name);
  if (problem) throw new AppError("invalid_collection_name", `${problem}: ${COLLECTION_NAME_RULE}`);
}
