/**
 * The platform's outbound events (what a router turns into wakes), kept in the database in
 * order and announced to in-process listeners such as the wake router.
 */
import type { DatabaseSync } from "node:sqlite";

/** The event names the sandbox emits. */
export type EventName =
  | "message.created"
  | "asset.created"
  | "task.activated"
  | "webhook_event.received"
  | "timeline.deleted";

/** One event as `GET /_sandbox/events` shows it. */
export interface SandboxEvent {
  /** The event name. */
  readonly event: EventName;
  /** The timeline's uuid. */
  readonly timeline: string;
  /** The record the event is about (the timeline itself for `timeline.deleted`). */
  readonly item: string | null;
  /** Who caused it; `null` for webhook deliveries, which come from outside. */
  readonly actor: string | null;
  /** When it happened (ISO-8601). */
  readonly at: string;
  /**
   * Who viewed the timeline when the event happened, for an event whose timeline is gone by the
   * time listeners run (`timeline.deleted`); not stored, so `list()` never carries it.
   */
  readonly audience?: readonly string[];
}

/** Called synchronously right after an event is recorded. */
export type EventListener = (event: SandboxEvent) => void;

/** Append-only event log with subscribers. */
export class EventLog {
  readonly #db: DatabaseSync;
  readonly #listeners = new Set<EventListener>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(db: DatabaseSync, onListenerError: (error: unknown) => void = () => {}) {
    this.#db = db;
    this.#onListenerError = onListenerError;
  }

  /**
   * Records an event and tells every listener. Call it only after the change it announces is
   * committed, so a listener that reads the database sees the change.
   */
  emit(event: SandboxEvent): void {
    this.#db.prepare("INSERT INTO events (event, timeline, item, actor, at) VALUES (?, ?, ?, ?, ?)")
      .run(event.event, event.timeline, event.item, event.actor, event.at);
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  /** Every recorded event, oldest first. */
  list(): SandboxEvent[] {
    return this.#db.prepare("SELECT event, timeline, item, actor, at FROM events ORDER BY seq")
      .all() as unknown as SandboxEvent[];
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
