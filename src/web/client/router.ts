let renderer: () => Promise<void> = async () => {};

/** main.ts registers the page renderer; pages navigate without importing main. */
export function setRenderer(r: () => Promise<void>): void {
  renderer = r;
}

/** Client-side navigation without a reload. */
export function navigate(path: string): void {
  history.pushState(null, "", path);
  void renderer();
}
