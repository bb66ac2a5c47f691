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
 * retries"). It also builds the run's timeline: every event but the answer deltas, which
 * become one `answer` entry holding the text and where each delta ended (`parts`), so a
 * stream can be replayed exactly from the store once the run has ended.
 */
export class RunLog {
  readonly events: Sequenced[] = [];
  private readonly listeners = new Set<(e: Sequenced) => void>();
  private readonly timeline: TimelineEvent[] = [];
  private answer: { index: number; atMs: number; text: string; parts: [number, number][] } | null = null;

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
    this.record(s, as);
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

  /** The timeline as it stands plus `tail` (the events about to be pushed), for the store. */
  timelineWith(tail: StreamEvent[]): TimelineEvent[] {
    const out = this.snapshot();
    let seq = this.events.length;
    for (const event of tail) {
      const e = entry({ seq: ++seq, event }, this.at());
      if (e) out.push(e);
    }
    return out;
  }

  private snapshot(): TimelineEvent[] {
    const out = [...this.timeline];
    if (this.answer) {
      const a = this.answer;
      const first = a.parts[0]![0];
      out.splice(a.index, 0, {
        atMs: a.atMs,
        type: "answer",
        data: { seq: first, chars: a.text.length, text: a.text, parts: a.parts },
      });
    }
    return out;
  }

  private at(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  private record(s: Sequenced, as?: TimelineAs): void {
    if (as) {
      this.timeline.push({ atMs: this.at(), type: as.type, data: { ...as.data, seq: s.seq } });
      return;
    }
    if (s.event.event === "answer") {
      this.answer ??= { index: this.timeline.length, atMs: this.at(), text: "", parts: [] };
      this.answer.text += s.event.data.delta;
      this.answer.parts.push([s.seq, this.answer.text.length]);
      return;
    }
    const e = entry(s, this.at());
    if (e) this.timeline.push(e);
  }
}

/** The timeline entry of one event (answer deltas excepted). */
function entry(s: Sequenced, atMs: number): TimelineEvent | null {
  const e = s.event;
  switch (e.event) {
    case "progress":
      return { atMs, type: "progress", data: { ...e.data, seq: s.seq } };
    case "source":
      return { atMs, type: "source", data: { source: e.data, seq: s.seq } };
    case "error":
      return { atMs, type: "error", data: { ...e.data, seq: s.seq } };
    case "final":
      return { atMs, type: "final", data: { status: e.data.status, latency_ms: e.data.usage.latency_ms, seq: s.seq } };
    case "answer":
      return null;
  }
}
