import { collapse } from "../../util/collapse.ts";
import type { ProviderAttempt } from "./run-search.ts";
import { CONNECTION_FAILURES } from "./search-error.ts";

/** One academic database's address, as ACADEMIC_PROVIDERS and its *_URL variable name it. */
export interface ProbeTarget {
  name: string;
  url: string;
}

/** What was last learned of the databases: whether any answers, and why each that doesn't. */
export interface ReachState {
  reachable: boolean;
  /** When it was learned (the clock of ReachOptions.now). */
  at: number;
  /** "openalex: connect ECONNREFUSED …" for each database that could not be reached. */
  failures: string[];
}

export interface ReachOptions {
  /** How long a learned "unreachable" holds before the next question probes again (default 30 s). */
  recheckMs?: number;
  /** One probe's wait for an answer (default 3 s): a box with no route answers with a timeout. */
  probeMs?: number;
  now?: () => number;
}

/** Failures that say nothing about the network: the database answered, or we never asked it. */
const NOT_NETWORK = new Set(["rate_limited", "skipped", "aborted"]);

/**
 * Whether the academic databases can be reached from this machine, learned two ways: a probe
 * (one request to each address; any HTTP answer, an error status included, means it is
 * reachable: only a failure to connect — DNS, refused, no answer in time — means it is not) and
 * the runs' own searches (a run whose every database call failed to connect). An "unreachable"
 * holds for `recheckMs`, then the next question probes again, so a box that comes online is
 * serving again without a restart (docs/decisions/0142-refuse-before-acceptance-when-nothing-can-search.md).
 */
export class AcademicReach {
  private state: ReachState | undefined;
  private probing: Promise<ReachState> | undefined;
  readonly recheckMs: number;
  private readonly probeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly targets: ProbeTarget[],
    o: ReachOptions = {},
  ) {
    this.recheckMs = o.recheckMs ?? 30_000;
    this.probeMs = o.probeMs ?? 3000;
    this.now = o.now ?? Date.now;
  }

  /** The last thing learned, if any. */
  get last(): ReachState | undefined {
    return this.state;
  }

  /** True when the databases are known to answer: no probe is needed to admit a run. */
  get knownReachable(): boolean {
    return this.state?.reachable === true;
  }

  /**
   * Whether any database can be reached: what is known when it is fresh, else one probe (a
   * probe already under way is shared, so a crowd of questions sends one request per database).
   */
  check(): Promise<ReachState> {
    const s = this.state;
    if (s && (s.reachable || this.now() - s.at < this.recheckMs)) return Promise.resolve(s);
    return this.probe();
  }

  /** Probes every database now (at start, and when what is known has gone stale). */
  probe(): Promise<ReachState> {
    this.probing ??= Promise.all(this.targets.map((t) => this.probeOne(t)))
      .then((why) => {
        const failures = why.filter((w): w is string => w !== null);
        this.state = { reachable: failures.length < this.targets.length, at: this.now(), failures };
        return this.state;
      })
      .finally(() => {
        this.probing = undefined;
      });
    return this.probing;
  }

  /** A run's searches: every database call failed to connect → unreachable; any answer → reachable. */
  observe(attempts: readonly ProviderAttempt[]): void {
    const mine = attempts.filter(
      (a) => this.targets.some((t) => t.name === a.provider) && !NOT_NETWORK.has(a.error ?? ""),
    );
    if (!mine.length) return;
    const down = mine.filter((a) => !a.ok && CONNECTION_FAILURES.has(a.error ?? ""));
    const failures = [...new Map(down.map((a) => [a.provider, `${a.provider}: ${a.error}`])).values()];
    this.state = { reachable: down.length < mine.length, at: this.now(), failures };
  }

  private async probeOne(t: ProbeTarget): Promise<string | null> {
    try {
      const res = await fetch(t.url, {
        method: "HEAD",
        redirect: "manual",
        signal: AbortSignal.timeout(this.probeMs),
      });
      await res.body?.cancel().catch(() => {});
      return null;
    } catch (e) {
      const why = e instanceof Error && e.name === "TimeoutError" ? `no answer within ${this.probeMs} ms` : String(e);
      return `${t.name}: ${collapse(why.replace(/^\w*Error: /, ""), 120)}`;
    }
  }
}
