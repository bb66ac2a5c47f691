import type { StreamEvent } from "../contract/events.ts";
import type { TimelineEvent } from "../store/types.ts";

/** A stream event with its place in the run's stream: `id: <request_id>:<seq>` on the wire. */
export interface Sequenced {
  seq: number;
  event: StreamEvent;
}

/** How an event is kept in the timeline when it isn't kept as itself (the first, "accepted"). */
export interface TimelineAs {
  type: string;
  data: Record<string, unknown>;
}

/**
 * The events of one run in the order they were sent, numbered from 1, kept in memory while
 * the run lives so a reconnecting client can resume after any of them (README "Safe
 * retries"). The run's timeline is derived from them once, when the run ends: every event
 * but the answer deltas, which become one `answer` entry holding the text and where each
 * delta ended (`parts`), so a stream can be replayed exactly from the store.
 */
export class RunLog {
  readonly events: Sequenced[] = [];
  /** When each event was sent (ms from acceptance), and how it is kept if not as itself. */
  private readonly kept: { atMs: number; as?: TimelineAs }[] = [];
  private readonly listeners = new Set<(e: Sequenced) => void>();

  constructor(private readonly startedAt: number) {}

  get lastSeq(): number {
    return this.events.length;
  }

  get ended(): boolean {
    return this.events.at(-1)?.event.event === "final";
  }

  /** Numbers the event, keeps it and hands it to every follower (a failing one can't stop the others). */
  push(event: StreamEvent, as?: TimelineAs): Sequenced {
    const s = { seq: this.events.length + 1, event };
    this.events.push(s);
    this.kept.push({ atMs: this.at(), as });
    for (const on of this.listeners) {
      try {
        on(s);
      } catch {
        /* a follower's failure is its own */
      }
    }
    return s;
  }

  /**
   * Hands `on` the events after `after` and then each new one, until the unsubscribe it
   * returns is called. Replay and subscription happen in one turn, so nothing is missed.
   */
  follow(after: number, on: (e: Sequenced) => void): () => void {
    for (const s of this.events.slice(Math.max(0, after))) on(s);
    this.listeners.add(on);
    return () => this.listeners.delete(on);
  }

  /** The timeline of the events so far plus `tail` (the events about to be pushed), for the store. */
  timelineWith(tail: StreamEvent[]): TimelineEvent[] {
    const now = this.at();
    const all = [
      ...this.events.map((s, i) => ({ ...s, ...this.kept[i]! })),
      ...tail.map((event, i) => ({ seq: this.events.length + i + 1, event, atMs: now, as: undefined })),
    ];
    const out: TimelineEvent[] = [];
    // The answer entry, in the timeline where its first delta was; its later deltas extend it.
    let answer: { seq: number; chars: number; text: string; parts: [number, number][] } | null = null;
    for (const { seq, event, atMs, as } of all) {
      if (as) out.push({ atMs, type: as.type, data: { ...as.data, seq } });
      else if (event.event !== "answer") out.push(entry(seq, event, atMs));
      else {
        if (!answer) {
          answer = { seq, chars: 0, text: "", parts: [] };
          out.push({ atMs, type: "answer", data: answer });
        }
        answer.text += event.data.delta;
        answer.chars = answer.text.length;
        answer.parts.push([seq, answer.chars]);
      }
    }
    return out;
  }

  private at(): number {
    return Math.round(performance.now() - this.startedAt);
  }
}

/** The timeline entry of one event other than an answer delta. */
function entry(seq: number, e: Exclude<StreamEvent, { event: "answer" }>, atMs: number): TimelineEvent {
  switch (e.event) {
    case "progress":
      return { atMs, type: "progress", data: { ...e.data, seq } };
    case "source":
      return { atMs, type: "source", data: { source: e.data, seq } };
    case "error":
      return { atMs, type: "error", data: { ...e.data, seq } };
    case "final":
      return { atMs, type: "final", data: { status: e.data.status, latency_ms: e.data.usage.latency_ms, seq } };
  }
}
