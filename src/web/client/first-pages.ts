/**
 * The first `pages` pages of a list the server answers a page at a time (`next` names the
 * following page's `?from=`, null after the last), read in order: what a page shows after its
 * "More …" was pressed `pages - 1` times, read again whole (statuses and revocations change).
 */
export async function firstPages<T>(
  page: (from: string | null) => Promise<{ items: T[]; next: string | null }>,
  pages: number,
): Promise<{ items: T[]; next: string | null }> {
  const items: T[] = [];
  let from: string | null = null;
  for (let n = 0; n < pages; n++) {
    const p = await page(from);
    items.push(...p.items);
    from = p.next;
    if (from === null) break;
  }
  return { items, next: from };
}
