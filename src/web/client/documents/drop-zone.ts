import { h } from "../dom.ts";

/**
 * The endings `corpus add` imports (src/corpus/import/formats.ts), for the file picker's filter;
 * not imported: that module is the server's. The server decides: a file it cannot read fails
 * with its reason.
 */
const ACCEPT = ".pdf,.html,.htm,.md,.markdown,.txt,.jsonl,.jsonl.gz,.gz";

let guarded = false;

/**
 * A file dropped beside the zone would make the browser open it in place of the app, leaving
 * the uploads under way: outside a zone, a drop of files does nothing.
 */
function guardWindow(): void {
  if (guarded) return;
  guarded = true;
  for (const type of ["dragover", "drop"])
    window.addEventListener(type, (e) => {
      const d = (e as DragEvent).dataTransfer;
      if (d?.types.includes("Files") && !(e.target as Element | null)?.closest?.(".dropzone")) e.preventDefault();
    });
}

/** Where files are dropped, or picked with the file dialog; several at once either way. */
export function dropZone(onFiles: (files: File[]) => void): HTMLElement {
  guardWindow();
  const input = h("input", { type: "file", multiple: true, accept: ACCEPT, class: "visually-hidden" });
  input.addEventListener("change", () => {
    onFiles([...(input.files ?? [])]);
    // The same file picked again is a change too.
    input.value = "";
  });
  const zone = h(
    "div",
    { class: "dropzone" },
    h("p", {}, "Drop files here, or"),
    h("label", { class: "button" }, "Choose files", input),
    h("p", { class: "muted" }, "PDF, HTML, Markdown, plain text, JSONL (gzipped too)."),
  );
  const over = (on: boolean) => (e: Event) => {
    e.preventDefault();
    zone.classList.toggle("over", on);
  };
  zone.addEventListener("dragenter", over(true));
  zone.addEventListener("dragover", over(true));
  zone.addEventListener("dragleave", over(false));
  zone.addEventListener("drop", (e) => {
    over(false)(e);
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length) onFiles(files);
  });
  return zone;
}
