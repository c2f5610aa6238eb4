/** Wire-shaped platform records for the client tests, in current and older shapes. */
import { PlatformClient, type PlatformClientOptions } from "../../lib/platform/mod.ts";

/** A deterministic UUIDv7-looking id; larger n sorts newer. */
export function u(n: number): string {
  return `0198c2a3-0000-7000-8000-${n.toString(16).padStart(12, "0")}`;
}

export const TIMELINE = "0198c2a2-0a00-7c11-a9f0-1e2d3c4b5a60";
export const TOKEN = "bc_uat_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4";

// Frozen so a test that mangles a record for a hostile case cannot leak into the next test.
export const ada = Object.freeze({ uuid: u(9001), handle: "ada", name: "Ada L.", kind: "human" });
export const vega = Object.freeze({ uuid: u(9002), handle: "vega", name: "Vega", kind: "ai" });

/** A client pointed at a stub, with a short timeout so hostile tests stay quick. */
export function clientFor(url: string, extra: PlatformClientOptions = {}): PlatformClient {
  return new PlatformClient({ baseUrl: url, token: TOKEN, timeoutMs: 2000, ...extra });
}

export function timeline(extra: Record<string, unknown> = {}) {
  return structuredClone({
    uuid: TIMELINE,
    name: "Vega and Ada",
    locked: false,
    created_at: "2026-05-14T09:00:00.000Z",
    updated_at: "2026-05-14T09:05:00.000Z",
    owner: ada,
    participants: [vega],
    ...extra,
  });
}

export function message(n: number, body = `message ${n}`) {
  return {
    type: "message",
    created_at: "2026-05-14T09:10:00.000Z",
    updated_at: "2026-05-14T09:10:00.000Z",
    user: ada,
    timeline: { uuid: TIMELINE },
    content: { uuid: u(n), body },
    future_field: { anything: true },
  };
}

export function asset(n: number, url = "https://blobs.example/q2.csv") {
  return {
    type: "asset",
    created_at: "2026-05-14T09:11:00.000Z",
    user: vega,
    timeline: { uuid: TIMELINE },
    content: {
      uuid: u(n),
      description: "Quarterly numbers",
      file: {
        filename: "q2.csv",
        byte_size: 5,
        content_type: "text/csv",
        checksum: "XUFAKrxLKna5cZ2REBfFkg==",
        url,
      },
    },
  };
}

export function task(n: number, status = "pending") {
  return {
    type: "task",
    created_at: "2026-05-14T09:12:00.000Z",
    updated_at: "2026-05-14T09:12:00.000Z",
    user: vega,
    timeline: { uuid: TIMELINE },
    content: {
      uuid: u(n),
      instructions: "check the build",
      activate_at: "2026-05-14T11:00:00+00:00",
      status,
    },
  };
}

export function endpoint(n: number, extra: Record<string, unknown> = {}) {
  return {
    type: "webhook_endpoint",
    created_at: "2026-05-14T09:20:00.000Z",
    updated_at: "2026-05-14T09:20:00.000Z",
    user: vega,
    timeline: { uuid: TIMELINE },
    content: {
      uuid: u(n),
      description: "CI notifications",
      enabled: true,
      ingest_url: `https://basecradle.com/webhooks/${u(n + 1)}`,
      verification: {
        enabled: false,
        signature_header: "X-Signature",
        verifier: "hmac_sha256_hex",
      },
      ...extra,
    },
  };
}

/** A webhook event; `shape` picks the endpoint pointer form. */
export function event(n: number, endpointN: number, shape: "reference" | "full" | "both") {
  const full = endpoint(endpointN);
  const pointer = shape === "reference"
    ? { uuid: u(endpointN) }
    : shape === "full"
    ? full
    : { ...full, uuid: u(endpointN) };
  return {
    type: "webhook_event",
    created_at: "2026-05-14T09:25:00.000Z",
    timeline: { uuid: TIMELINE },
    webhook_endpoint: pointer,
    content: {
      uuid: u(n),
      content_type: "application/json",
      headers: { "Content-Type": "application/json", "X-Ci-Event": "build.failed" },
      payload: '{"build":42,"ok":false}',
      ingest_token_at_receipt: u(endpointN + 1),
    },
  };
}

export function subjectUser(extra: Record<string, unknown> = {}) {
  return {
    ...vega,
    trust: { you_trust: true, trusts_you: true, mutual: true },
    suspended: false,
    max_timelines: 15,
    roles: [],
    ...extra,
  };
}

export function session(n: number, extra: Record<string, unknown> = {}) {
  return {
    uuid: u(n),
    name: "vega runtime",
    ip_address: "198.51.100.20",
    user_agent: "x",
    created_at: "2026-05-14T09:00:00.000Z",
    last_used_at: null,
    kind: "api",
    current: false,
    ...extra,
  };
}
