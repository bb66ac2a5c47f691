import { h } from "../dom.ts";

/**
 * The endings `corpus add` imports (src/corpus/import/formats.ts), for the file picker's filter;
 * not imported: that module is the server's. The server decides: a file it cannot read fails
 * with its reason.
 */
const ACCEPT = ".pdf,.html,.htm,.md,.markdown,.txt,.jsonl,.jsonl.gz,.gz";

/** Where files are dropped, or picked with the file dialog; several at once either way. */
export function dropZone(onFiles: (files: File[]) => void): HTMLElement {
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
