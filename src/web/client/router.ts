let renderer: () => Promise<void> = async () => {};

/** main.ts registers the page renderer; pages navigate without importing main. */
export function setRenderer(r: () => Promise<void>): void {
  renderer = r;
}

/** Client-side navigation without a reload; `replace` when the current address names nothing any more. */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  void renderer();
}
