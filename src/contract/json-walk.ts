// Walks over values parsed from JSON a caller sent, without recursion. Threat: 32,000 nested
// arrays fit in a 64 KB body, and a walker that calls itself per level overflows the stack
// there: a 500 on every route that reads a body, sign-in and sign-up among them.

/**
 * Nesting a caller's JSON may have: deeper is refused at the door (a coded 400), so no walker
 * we do not own (the framework's, a schema check's, a log line's) meets it either.
 */
export const MAX_JSON_DEPTH = 64;

/** One value met in a walk: where it sits (its container's step and its key or index), and how deep. */
export interface JsonStep {
  value: unknown;
  parent: JsonStep | null;
  /** Its key in an object, its index in an array; null at the top. */
  key: string | number | null;
  /** 0 at the top, one more per container entered. */
  depth: number;
}

/** Arrays and plain objects are entered; a Date or a byte view is a value of its own, as JSON has none. */
export const isContainer = (v: unknown): v is object =>
  v !== null && typeof v === "object" && !(v instanceof Date) && !ArrayBuffer.isView(v);

/** A container's entries in order: an array's items by index, an object's own enumerable keys. */
export const entriesOf = (v: object): [string | number, unknown][] =>
  Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);

/**
 * The first step, in document order (an object's key met with its value, before the next key),
 * for which `found` holds; null when none does. An explicit stack, never the call stack.
 */
export function findInJson(root: unknown, found: (step: JsonStep) => boolean): JsonStep | null {
  const stack: JsonStep[] = [{ value: root, parent: null, key: null, depth: 0 }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    if (found(step)) return step;
    if (!isContainer(step.value)) continue;
    const entries = entriesOf(step.value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, value] = entries[i]!;
      stack.push({ value, parent: step, key, depth: step.depth + 1 });
    }
  }
  return null;
}

/** Whether the value nests containers more than `max` levels deep (`[[1]]` is two). */
export const nestedDeeperThan = (value: unknown, max = MAX_JSON_DEPTH): boolean =>
  findInJson(value, (s) => s.depth >= max && isContainer(s.value)) !== null;

/**
 * Where a step sits as a caller names it (`items[2].title`), from `at` (the top's name, if any);
 * built once, from the steps' links, when a walk names it: never a path per level.
 */
export function pathOf(step: JsonStep, at?: string): string | undefined {
  const keys: (string | number)[] = [];
  for (let s: JsonStep | null = step; s && s.key !== null; s = s.parent) keys.push(s.key);
  let path = at;
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i]!;
    path = typeof k === "number" ? `${path ?? ""}[${k}]` : path ? `${path}.${k}` : k;
  }
  return path;
}
