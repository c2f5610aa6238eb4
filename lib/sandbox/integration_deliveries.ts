/**
 * The platform side of waking agents: for every event on a timeline, each viewer with an enabled
 * integration gets a signed `POST` to its integration URL, as the live platform sends it. Best
 * effort: one try per delivery, in event order per recipient; a failure (no answer within the
 * timeout, or a status outside 2xx) is counted in the user's `integration_failure_count`, and
 * five failures in a row switch the integration off. Nothing here ever throws into a request.
 */
import { createHmac } from "node:crypto";
import { errorMessage } from "../base/error_text.ts";
import { findTimeline, findUser, viewersOf } from "./shared/access.ts";
import { deliveryOf, type PlatformDelivery } from "./shared/deliveries.ts";
import type { SandboxEvent } from "./shared/events.ts";
import { bookDelivery, integrationRow } from "./shared/integrations.ts";
import type { SandboxState } from "./shared/state.ts";

/** How long one delivery may take before it counts as failed. */
const DEFAULT_TIMEOUT_MS = 10_000;

const MAX_RECORDS = 10_000;

/** One delivery attempt, as kept for tests and shown in the log. */
export interface DeliveryRecord {
  /** The delivery's id (its `X-BaseCradle-Delivery` header). */
  readonly delivery: string;
  /** The event name, e.g. `message.created`. */
  readonly event: string;
  /** The uuid of the user whose integration received it. */
  readonly recipient: string;
  /** That user's handle. */
  readonly handle: string;
  /** The integration URL it was posted to. */
  readonly url: string;
  /** The receiver's HTTP status, or null when there was no answer. */
  readonly status: number | null;
  /** Why it failed without an answer (connection refused, timeout), else null. */
  readonly error: string | null;
  /** Whether the receiver answered 2xx. */
  readonly ok: boolean;
  /** How long the attempt took, in milliseconds. */
  readonly ms: number;
}

/** `sha256=<hex HMAC-SHA256 of body under secret>`: the `X-BaseCradle-Signature` value. */
export function signatureOf(body: Uint8Array, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** Sends each event to the integration URLs of its timeline's viewers. */
export class IntegrationDeliveries {
  readonly #state: SandboxState;
  readonly #log: (line: string) => void;
  readonly #timeoutMs: number;
  readonly #chains = new Map<string, Promise<void>>();
  readonly #records: DeliveryRecord[] = [];
  readonly #abort = new AbortController();

  constructor(state: SandboxState, log: (line: string) => void, timeoutMs = DEFAULT_TIMEOUT_MS) {
    this.#state = state;
    this.#log = log;
    this.#timeoutMs = timeoutMs;
  }

  /** Every delivery made so far, in the order they finished (the newest 10,000). */
  get records(): readonly DeliveryRecord[] {
    return this.#records;
  }

  /** Queues a delivery of `event` to each viewer whose integration is on. */
  handle(event: SandboxEvent): void {
    if (this.#abort.signal.aborted) return;
    const found = findTimeline(this.#state, event.timeline);
    const viewers = event.audience ??
      (found ? viewersOf(this.#state, found).map((user) => user.uuid) : []);
    for (const recipient of viewers) {
      const integration = integrationRow(this.#state, recipient);
      if (!integration?.url || integration.enabled !== 1) continue;
      const delivery = deliveryOf(event, recipient, this.#state.baseUrl);
      const previous = this.#chains.get(recipient) ?? Promise.resolve();
      // A failure here must never reject the chain: the next delivery waits on it.
      const next = previous.then(() => this.#send(delivery)).catch((caught) =>
        this.#log(`sandbox delivery-error reason=${JSON.stringify(errorMessage(caught))}`)
      );
      this.#chains.set(recipient, next);
      void next.finally(() => {
        if (this.#chains.get(recipient) === next) this.#chains.delete(recipient);
      });
    }
  }

  /** Resolves once every queued delivery has been sent (or has failed). */
  async idle(): Promise<void> {
    while (this.#chains.size > 0) await Promise.all(this.#chains.values());
  }

  /** Abandons what is queued or in flight and waits for it to settle. */
  async close(): Promise<void> {
    this.#abort.abort();
    await this.idle();
  }

  async #send(delivery: PlatformDelivery): Promise<void> {
    // Looked up again at send time: the integration may have changed while this waited.
    const integration = integrationRow(this.#state, delivery.recipient_uuid);
    if (this.#abort.signal.aborted || !integration?.url || integration.enabled !== 1) return;
    const handle = findUser(this.#state, delivery.recipient_uuid)?.handle ?? "?";
    const body = new TextEncoder().encode(JSON.stringify(delivery));
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(integration.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "BaseCradle-Sandbox",
          "x-basecradle-event": delivery.event,
          "x-basecradle-delivery": delivery.event_id,
          "x-basecradle-signature": signatureOf(body, integration.secret),
        },
        body,
        signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(this.#timeoutMs)]),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (caught) {
      error = errorMessage(caught);
    }
    const ms = Math.round(performance.now() - started);
    const ok = status !== null && status >= 200 && status < 300;
    const record: DeliveryRecord = {
      delivery: delivery.event_id,
      event: delivery.event,
      recipient: delivery.recipient_uuid,
      handle,
      url: integration.url,
      status,
      error,
      ok,
      ms,
    };
    this.#records.push(record);
    if (this.#records.length > MAX_RECORDS) this.#records.shift();
    const where = `event=${delivery.event} recipient=@${handle} delivery=${delivery.event_id}`;
    if (ok) {
      this.#log(`sandbox delivery ${where} status=${status} ms=${ms}`);
    } else {
      const why = status === null ? `reason=${JSON.stringify(error)}` : `status=${status}`;
      this.#log(`sandbox delivery-failed ${where} ${why} ms=${ms}`);
    }
    try {
      if (bookDelivery(this.#state, delivery.recipient_uuid, ok)) {
        this.#log(`sandbox integration-disabled user=@${handle} reason=failures`);
      }
    } catch {
      // The database is closing with the sandbox: the count no longer matters.
    }
  }
}
