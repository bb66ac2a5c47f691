import { h } from "../dom.ts";

/** What a citation marker's popover says: the source, and the quote that backs the sentence, if any. */
export interface QuoteInfo {
  sourceId: string;
  title: string;
  /** The source's host, or its collection and document. */
  where: string;
  quote: string | null;
  support: number | null;
  backed: boolean;
  /** The check moved the writer's marker here: the source the writer cited did not back the sentence. */
  recited: boolean;
}

const ID = "quote-popover";
/** How long the pointer may travel from a marker to its popover before it closes. */
const LEAVE_MS = 200;

let pop: HTMLElement | null = null;
let openOn: HTMLAnchorElement | null = null;
let closeTimer: ReturnType<typeof setTimeout> | undefined;
let listening = false;
const lookups = new WeakMap<HTMLElement, (cite: HTMLAnchorElement) => QuoteInfo | null>();

/** The one popover of the page (one open at a time), made on first use inside `main`, so a new page drops it. */
function popover(): HTMLElement {
  if (pop?.isConnected) return pop;
  pop = h("div", { id: ID, role: "tooltip", class: "quote-pop", hidden: true });
  pop.addEventListener("mouseenter", () => clearTimeout(closeTimer));
  pop.addEventListener("mouseleave", () => later());
  document.getElementById("main")!.append(pop);
  openOn = null;
  return pop;
}

function body(i: QuoteInfo): Node[] {
  const head = h(
    "p",
    { class: "quote-src" },
    h("strong", {}, `[${i.sourceId}] `),
    i.title,
    h("span", { class: "muted" }, ` — ${i.where}`),
  );
  if (i.quote === null)
    return [head, h("p", { class: "muted" }, "No quote from this source was checked for this sentence.")];
  const verdict = i.backed ? "backs this sentence" : "weak: does not clearly back this sentence";
  return [
    head,
    h("blockquote", { class: "quote" }, i.quote),
    h("p", { class: `quote-support ${i.backed ? "backed" : "weak"}` }, `Support ${i.support!.toFixed(2)} · ${verdict}`),
    ...(i.recited
      ? [
          h(
            "p",
            { class: "quote-moved" },
            "Moved here by the claim check: the source the writer cited did not back this sentence.",
          ),
        ]
      : []),
  ];
}

function close(): void {
  clearTimeout(closeTimer);
  if (pop) pop.hidden = true;
  openOn = null;
}

function later(): void {
  clearTimeout(closeTimer);
  closeTimer = setTimeout(close, LEAVE_MS);
}

/** Below the marker (above it when there is no room), kept inside the window's width. */
function place(p: HTMLElement, cite: HTMLElement): void {
  const r = cite.getBoundingClientRect();
  const width = Math.min(448, document.documentElement.clientWidth - 16);
  p.style.width = `${width}px`;
  const left = Math.max(8, Math.min(r.left, document.documentElement.clientWidth - width - 8));
  p.style.left = `${left + window.scrollX}px`;
  const below = r.bottom + 6;
  const above = r.top - 6 - p.offsetHeight;
  p.style.top = `${(below + p.offsetHeight > window.innerHeight && above > 0 ? above : below) + window.scrollY}px`;
}

function open(cite: HTMLAnchorElement, info: QuoteInfo): void {
  clearTimeout(closeTimer);
  const p = popover();
  if (openOn !== cite) p.replaceChildren(...body(info));
  p.hidden = false;
  openOn = cite;
  place(p, cite);
}

/** Escape, or a tap or click anywhere else, closes the popover. */
function listenToPage(): void {
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && openOn) close();
  });
  document.addEventListener("pointerdown", (e) => {
    if (openOn && !citeOf(e.target) && !pop?.contains(e.target as Node)) close();
  });
}

const citeOf = (t: EventTarget | null) => (t as Element | null)?.closest?.("a.cite") as HTMLAnchorElement | null;

/**
 * The quote of each marker in `root` on hover, keyboard focus or tap. A first tap shows the
 * quote; a second tap on the same marker follows it to the source, as a click does.
 */
export function quotePopovers(root: HTMLElement, infoOf: (cite: HTMLAnchorElement) => QuoteInfo | null): void {
  if (!listening) listenToPage();
  listening = true;
  for (const cite of root.querySelectorAll("a.cite")) cite.setAttribute("aria-describedby", ID);
  const first = !lookups.has(root);
  lookups.set(root, infoOf);
  if (!first) return;
  const show = (e: Event) => {
    const cite = citeOf(e.target);
    const info = cite && lookups.get(root)!(cite);
    if (cite && info) open(cite, info);
  };
  let tapOpened = false;
  root.addEventListener("mouseover", show);
  root.addEventListener("focusin", show);
  root.addEventListener("mouseout", (e) => {
    if (citeOf(e.target) && !pop?.contains(e.relatedTarget as Node | null)) later();
  });
  root.addEventListener("focusout", (e) => {
    if (citeOf(e.target)) close();
  });
  root.addEventListener("pointerdown", (e) => {
    const cite = citeOf(e.target);
    tapOpened = !!cite && e.pointerType !== "mouse" && openOn !== cite;
  });
  root.addEventListener("click", (e) => {
    if (tapOpened && citeOf(e.target)) {
      e.preventDefault();
      show(e);
    }
    tapOpened = false;
  });
}
