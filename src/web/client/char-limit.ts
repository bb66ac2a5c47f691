import { h } from "./dom.ts";
import { fmtNumber } from "./format.ts";

/**
 * The longest question in Unicode code points, as the API counts it (README "The API",
 * src/contract/query.ts MAX_QUERY_CHARS; a test holds the two equal). Not imported: the
 * contract module would bring TypeBox into the browser bundle.
 */
export const MAX_QUERY_CHARS = 2000;

/** Code points, as the server counts ([...s].length): an emoji is one, not two UTF-16 units. */
function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Limits a field to `max` code points with a visible counter. The field's own maxlength counts
 * UTF-16 units, so it stopped at 1,000 emoji while the API takes 2,000; instead, past the limit
 * the field is invalid (the form won't submit) and the counter says by how much.
 */
export function limitCodePoints(field: HTMLTextAreaElement | HTMLInputElement, max: number): HTMLElement {
  const counter = h("p", { class: "counter muted", id: `${field.name}-count` });
  field.setAttribute("aria-describedby", counter.id);
  const update = () => {
    const n = codePoints(field.value);
    const over = n - max;
    const count = `${fmtNumber(n)} / ${fmtNumber(max)} characters`;
    counter.textContent = over > 0 ? `${count}: ${fmtNumber(over)} too many` : count;
    counter.classList.toggle("over", over > 0);
    field.setCustomValidity(over > 0 ? `At most ${fmtNumber(max)} characters: remove ${fmtNumber(over)}.` : "");
  };
  field.addEventListener("input", update);
  update();
  return counter;
}
