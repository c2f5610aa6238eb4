/**
 * The page's live feed: the server-sent-event subscribers of `GET /api/events` and the scrubbed
 * snapshot `GET /api/state` answers with.
 */
import { scrubSecrets } from "../journal/scrub.ts";
import type { Snapshot, SnapshotUpdate, TimelineView } from "./views.ts";
import type { WakeSummary } from "./wake_summary.ts";
import type { WakeView } from "./wakes.ts";

/** What {@link Hub} builds its events from. */
export interface HubSources {
  /** The whole snapshot: `/api/state` and each stream's first event. */
  readonly snapshot: () => Promise<Snapshot>;
  /** The timelines alone, re-read when a platform event or a write touched them. */
  readonly timelines: () => Promise<TimelineView[]>;
  /** What the page is sent of one wake. */
  readonly summary: (wake: WakeView) => WakeSummary;
}

/** What changed; see {@link Hub.changed}. */
export interface HubChange {
  readonly wake?: WakeView;
  readonly timelines?: boolean;
}

/**
 * The server-sent-event subscribers. Each stream starts with the whole scrubbed snapshot
 * (`event: state`); after that, each burst of changes is one `event: update` carrying only the
 * wakes that changed and, when they changed, the timelines — so a long session does not re-send
 * every finished wake on every journal line (docs/playground.md#the-page).
 */
export class Hub {
  readonly #sources: HubSources;
  readonly #streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  readonly #encoder = new TextEncoder();
  readonly #wakes = new Set<WakeView>();
  #timelines = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Updates are built and sent one after another, so they arrive in the order they happened. */
  #sending: Promise<void> = Promise.resolve();
  #keepAlive: ReturnType<typeof setInterval>;

  constructor(sources: HubSources) {
    this.#sources = sources;
    this.#keepAlive = setInterval(() => this.#send(": keep-alive\n\n"), 15_000);
  }

  /** The current snapshot as scrubbed JSON text. */
  async json(): Promise<string> {
    return scrubSecrets(JSON.stringify(await this.#sources.snapshot()));
  }

  /** Notes a change and coalesces a burst of them (a wake's journal lines) into one update. */
  changed(change: HubChange): void {
    if (change.wake) this.#wakes.add(change.wake);
    if (change.timelines) this.#timelines = true;
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const wakes = [...this.#wakes];
      const timelines = this.#timelines;
      this.#wakes.clear();
      this.#timelines = false;
      if (this.#streams.size === 0) return;
      this.#sending = this.#sending.then(async () => {
        try {
          const summaries = wakes.map(this.#sources.summary);
          const update: SnapshotUpdate = timelines
            ? { timelines: await this.#sources.timelines(), wakes: summaries }
            : { wakes: summaries };
          this.#send(`event: update\ndata: ${scrubSecrets(JSON.stringify(update))}\n\n`);
        } catch {
          // The sandbox is closing; the next change (if any) tries again.
        }
      });
    }, 100);
  }

  /** A new event stream, sent the current snapshot first. */
  stream(): ReadableStream<Uint8Array> {
    let mine: ReadableStreamDefaultController<Uint8Array>;
    return new ReadableStream({
      start: async (controller) => {
        mine = controller;
        this.#streams.add(controller);
        controller.enqueue(this.#encoder.encode(`event: state\ndata: ${await this.json()}\n\n`));
      },
      cancel: () => {
        this.#streams.delete(mine);
      },
    });
  }

  /** Ends every stream and stops the timers. */
  close(): void {
    clearInterval(this.#keepAlive);
    if (this.#timer !== null) clearTimeout(this.#timer);
    for (const stream of this.#streams) {
      try {
        stream.close();
      } catch {
        // Already closed by the client.
      }
    }
    this.#streams.clear();
  }

  #send(text: string): void {
    const bytes = this.#encoder.encode(text);
    for (const stream of this.#streams) {
      try {
        stream.enqueue(bytes);
      } catch {
        this.#streams.delete(stream);
      }
    }
  }
}
