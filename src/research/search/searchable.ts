import { AppError } from "../../contract/errors.ts";
import type { Awaitable, CollectionReader } from "../../store/types.ts";
import { collapse } from "../../util/collapse.ts";
import { NEXT_STEPS } from "./next-steps.ts";
import type { SearchProviders } from "./registry.ts";

/**
 * Whether a question from `reader` could search anything, asked before a run is accepted:
 * a refusal then charges nothing, where a run that failed to search counts against the
 * allowance (docs/decisions/0142-refuse-before-acceptance-when-nothing-can-search.md).
 * Synchronous (null) whenever a web provider is configured or a database is known to answer,
 * so the usual admission waits on nothing; otherwise the collections are asked, then the
 * databases probed. The refusal is search_unavailable (503, Retry-After: when the databases
 * are probed again) naming what is missing and what adds it.
 */
export function searchRefusal(p: SearchProviders, reader: CollectionReader): Awaitable<AppError | null> {
  if (p.web.length) return null;
  if (p.academic.length && p.reach?.knownReachable) return null;
  return refusalAfterLooking(p, reader);
}

async function refusalAfterLooking(p: SearchProviders, reader: CollectionReader): Promise<AppError | null> {
  if (p.local && (await p.local.forReader(reader))) return null;
  const missing: string[] = [p.localOnly ? NEXT_STEPS.localOnly : NEXT_STEPS.web];
  if (p.academic.length) {
    const reach = p.reach ? await p.reach.check() : undefined;
    if (!reach || reach.reachable) return null;
    missing.push(
      `the academic databases cannot be reached from this machine (${collapse(reach.failures.join("; "), 240)}): ${NEXT_STEPS.network}`,
    );
  } else if (!p.localOnly) missing.push(NEXT_STEPS.academicOff);
  missing.push(p.local ? NEXT_STEPS.collections : p.localOff ? NEXT_STEPS.collectionsOff : NEXT_STEPS.noDatabase);
  const retryS = Math.max(1, Math.ceil((p.reach?.recheckMs ?? 30_000) / 1000));
  return new AppError(
    "search_unavailable",
    `nothing can search on this server, so the question was not started and nothing was charged: ${missing.join("; ")}`,
    503,
    { "Retry-After": String(retryS) },
  );
}
