/**
 * Zod schemas for every platform response, and the types inferred from them. The API is
 * additive-only, so objects ignore unknown keys; only fields a caller relies on are required,
 * and shapes the platform has reshaped over time (docs/platform-client.md#calls) accept both
 * forms.
 * Field names stay as on the wire (snake_case) so records round-trip into transcripts as-is.
 */
import * as z from "../base/zod.ts";
import {
  ActorSchema,
  type ItemBase,
  type Loose,
  type Nul,
  type Obj,
  type Opt,
  type OptNul,
  ParticipantSchema,
  ReferenceSchema,
  type Str,
  Timestamp,
} from "./schema_shapes.ts";
import { UserSchema } from "./account_schemas.ts";

export * from "./schema_shapes.ts";
export * from "./account_schemas.ts";

/** The timeline record (list rows and subject form share it; only subjects carry items). */
export const TimelineSchema: Obj<{
  uuid: Str;
  name: Str;
  locked: z.ZodBoolean;
  created_at: Str;
  updated_at: Opt<Str>;
  owner: typeof ActorSchema;
  participants: z.ZodArray<typeof ParticipantSchema>;
}> = z.object({
  uuid: z.string(),
  name: z.string(),
  locked: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp.optional(),
  owner: ActorSchema,
  participants: z.array(ParticipantSchema),
});
/** A timeline. Viewers are `owner` plus `participants` (the owner is not in `participants`). */
export type Timeline = z.infer<typeof TimelineSchema>;

/** Fields every item shares; `updated_at` is a newer addition. */
const itemBase: ItemBase = {
  created_at: Timestamp,
  updated_at: Timestamp.optional(),
  timeline: ReferenceSchema,
};

/** A message item. Its identity is `content.uuid`. */
export const MessageSchema: Obj<
  ItemBase & {
    type: z.ZodLiteral<"message">;
    user: typeof ActorSchema;
    content: Obj<{ uuid: Str; body: Str }>;
  }
> = z.object({
  type: z.literal("message"),
  ...itemBase,
  user: ActorSchema,
  content: z.object({ uuid: z.string(), body: z.string() }),
});
/** A message on a timeline. */
export type Message = z.infer<typeof MessageSchema>;

/** An uploaded file's metadata and its dereferenceable (signed) URL. */
export const AssetFileSchema: Obj<{
  filename: Str;
  byte_size: z.ZodNumber;
  content_type: Str;
  checksum: OptNul<Str>;
  url: Str;
}> = z.object({
  filename: z.string(),
  byte_size: z.number(),
  content_type: z.string(),
  checksum: z.string().nullable().optional(),
  url: z.string(),
});
/** The blob behind an asset. */
export type AssetFile = z.infer<typeof AssetFileSchema>;

/** An asset item; `file` may be null when the upload was never attached. */
export const AssetSchema: Obj<
  ItemBase & {
    type: z.ZodLiteral<"asset">;
    user: typeof ActorSchema;
    content: Obj<{ uuid: Str; description: OptNul<Str>; file: Nul<typeof AssetFileSchema> }>;
  }
> = z.object({
  type: z.literal("asset"),
  ...itemBase,
  user: ActorSchema,
  content: z.object({
    uuid: z.string(),
    description: z.string().nullable().optional(),
    file: AssetFileSchema.nullable(),
  }),
});
/** An asset (uploaded file) on a timeline. */
export type Asset = z.infer<typeof AssetSchema>;

/** A task item; `status` is pending | activated | blocked_timeline_locked | cancelled. */
export const TaskSchema: Obj<
  ItemBase & {
    type: z.ZodLiteral<"task">;
    user: typeof ActorSchema;
    content: Obj<{ uuid: Str; instructions: Str; activate_at: Str; status: Str }>;
  }
> = z.object({
  type: z.literal("task"),
  ...itemBase,
  user: ActorSchema,
  content: z.object({
    uuid: z.string(),
    instructions: z.string(),
    activate_at: Timestamp,
    status: z.string(),
  }),
});
/** A scheduled task on a timeline. */
export type Task = z.infer<typeof TaskSchema>;

/** A webhook endpoint item; `user` (its author) is absent on older platforms. */
export const WebhookEndpointSchema: Obj<
  ItemBase & {
    type: z.ZodLiteral<"webhook_endpoint">;
    user: Opt<typeof ActorSchema>;
    content: Obj<{
      uuid: Str;
      description: Nul<Str>;
      enabled: z.ZodBoolean;
      ingest_url: Str;
      verification: Opt<
        Obj<{ enabled: z.ZodBoolean; signature_header: OptNul<Str>; verifier: OptNul<Str> }>
      >;
    }>;
  }
> = z.object({
  type: z.literal("webhook_endpoint"),
  ...itemBase,
  user: ActorSchema.optional(),
  content: z.object({
    uuid: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    ingest_url: z.string(),
    verification: z.object({
      enabled: z.boolean(),
      signature_header: z.string().nullable().optional(),
      verifier: z.string().nullable().optional(),
    }).optional(),
  }),
});
/** A webhook endpoint. Its `ingest_url` is the secret senders post to. */
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/**
 * An event's endpoint pointer: a `{uuid}` reference on older platforms, the full endpoint
 * object on newer ones (uuid at `content.uuid`); compatibility servers send both.
 */
export const EventEndpointSchema: Loose<{ uuid: Opt<Str>; content: Opt<Loose<{ uuid: Str }>> }> = z
  .looseObject({
    uuid: z.string().optional(),
    content: z.looseObject({ uuid: z.string() }).optional(),
  }).refine((e) => e.content?.uuid !== undefined || e.uuid !== undefined, {
    message: "neither uuid nor content.uuid is present",
  });

/** A webhook event item as sent, before `endpoint_uuid` is resolved. */
export type WebhookEventWire = Obj<
  ItemBase & {
    type: z.ZodLiteral<"webhook_event">;
    webhook_endpoint: typeof EventEndpointSchema;
    content: Obj<{
      uuid: Str;
      content_type: OptNul<Str>;
      headers: Opt<z.ZodRecord<Str, Nul<Str>>>;
      payload: Nul<Str>;
      ingest_token_at_receipt: OptNul<Str>;
      verified_at_receipt: OptNul<z.ZodBoolean>;
    }>;
  }
>;

/** A webhook event item (one accepted delivery); events have no `user`. */
export const WebhookEventSchema: z.ZodPipe<
  WebhookEventWire,
  z.ZodTransform<
    z.output<WebhookEventWire> & { endpoint_uuid: string },
    z.output<WebhookEventWire>
  >
> = z.object({
  type: z.literal("webhook_event"),
  ...itemBase,
  webhook_endpoint: EventEndpointSchema,
  content: z.object({
    uuid: z.string(),
    content_type: z.string().nullable().optional(),
    headers: z.record(z.string(), z.string().nullable()).optional(),
    payload: z.string().nullable(),
    ingest_token_at_receipt: z.string().nullable().optional(),
    verified_at_receipt: z.boolean().nullable().optional(),
  }),
}).transform((event) => ({
  ...event,
  /** The endpoint's uuid, whichever shape the platform sent. */
  endpoint_uuid: (event.webhook_endpoint.content?.uuid ?? event.webhook_endpoint.uuid) as string,
}));
/** A webhook event, with `endpoint_uuid` resolved from either endpoint shape. */
export type WebhookEvent = z.output<typeof WebhookEventSchema>;

const KNOWN_ITEM_TYPES = ["message", "asset", "task", "webhook_event", "webhook_endpoint"];

/**
 * An item of a type this client does not know yet; kept so new kinds never break a read.
 * Known types never fall back to it, so a broken message is still reported as broken.
 */
export const UnknownItemSchema: Loose<{ type: Str; content: Loose<{ uuid: Str }> }> = z
  .looseObject({
    type: z.string().refine((t) => !KNOWN_ITEM_TYPES.includes(t), {
      message: "is a known item type whose fields do not match",
      abort: true,
    }),
    content: z.looseObject({ uuid: z.string() }),
  });
/** A timeline item of an unrecognised type. */
export type UnknownItem = z.infer<typeof UnknownItemSchema>;

/** Anything that can appear in a timeline's `items`. */
export const TimelineItemSchema: z.ZodUnion<
  readonly [
    z.ZodDiscriminatedUnion<
      [
        typeof MessageSchema,
        typeof AssetSchema,
        typeof TaskSchema,
        typeof WebhookEventSchema,
        typeof WebhookEndpointSchema,
      ],
      "type"
    >,
    typeof UnknownItemSchema,
  ]
> = z.union([
  z.discriminatedUnion("type", [
    MessageSchema,
    AssetSchema,
    TaskSchema,
    WebhookEventSchema,
    WebhookEndpointSchema,
  ]),
  UnknownItemSchema,
]);
/** One row of a timeline's inline items. */
export type TimelineItem = z.output<typeof TimelineItemSchema>;

/** Any item kind; its identity is `content.uuid`. */
export type Item = Message | Asset | Task | WebhookEndpoint | WebhookEvent;

/** `GET/POST /timelines[/{uuid}]`: the two-key envelope. */
export const TimelineWithItemsSchema: Obj<{
  timeline: typeof TimelineSchema;
  items: z.ZodArray<typeof TimelineItemSchema>;
}> = z.object({
  timeline: TimelineSchema,
  items: z.array(TimelineItemSchema),
});
/** A timeline together with its inline items. */
export type TimelineWithItems = z.output<typeof TimelineWithItemsSchema>;

/** A note on a contact message (immutable). */
export const NoteSchema: Obj<{
  uuid: Str;
  body: Str;
  user: OptNul<typeof ActorSchema>;
  notable: Opt<Obj<{ type: Str; uuid: Str }>>;
  created_at: Str;
  updated_at: Opt<Str>;
}> = z.object({
  uuid: z.string(),
  body: z.string(),
  user: ActorSchema.nullable().optional(),
  notable: z.object({ type: z.string(), uuid: z.string() }).optional(),
  created_at: Timestamp,
  updated_at: Timestamp.optional(),
});
/** An admin's note. */
export type Note = z.infer<typeof NoteSchema>;

/** A contact-form submission (admin only). Flat record, no `type`/`content`. */
export const ContactMessageSchema: Obj<{
  uuid: Str;
  name: OptNul<Str>;
  email_address: OptNul<Str>;
  body: Str;
  status: Str;
  user: OptNul<typeof ActorSchema>;
  ip_address: OptNul<Str>;
  user_agent: OptNul<Str>;
  headers: Opt<z.ZodRecord<Str, Nul<Str>>>;
  honeypot_filled: Opt<z.ZodBoolean>;
  fill_seconds: OptNul<z.ZodNumber>;
  data: Opt<z.ZodUnknown>;
  notes: Opt<z.ZodArray<typeof NoteSchema>>;
  created_at: Str;
  updated_at: Opt<Str>;
}> = z.object({
  uuid: z.string(),
  name: z.string().nullable().optional(),
  email_address: z.string().nullable().optional(),
  body: z.string(),
  status: z.string(),
  user: ActorSchema.nullable().optional(),
  ip_address: z.string().nullable().optional(),
  user_agent: z.string().nullable().optional(),
  headers: z.record(z.string(), z.string().nullable()).optional(),
  honeypot_filled: z.boolean().optional(),
  fill_seconds: z.number().nullable().optional(),
  data: z.unknown().optional(),
  notes: z.array(NoteSchema).optional(),
  created_at: Timestamp,
  updated_at: Timestamp.optional(),
});
/** A contact message. */
export type ContactMessage = z.infer<typeof ContactMessageSchema>;

/** The lock verb's answer: `{timeline}` now, `{uuid, locked}` (or just `{locked}`) before. */
export const LockResponseSchema = z.object({
  timeline: TimelineSchema.optional(),
  uuid: z.string().optional(),
  locked: z.boolean().optional(),
}).refine((b) => b.timeline !== undefined || b.locked !== undefined, {
  message: "neither timeline nor locked is present",
});

/** What `timelines.lock` resolves to, whichever shape the platform sent. */
export interface LockResult {
  /** The timeline's uuid. */
  readonly uuid: string;
  /** Whether it is now locked (always true on success). */
  readonly locked: boolean;
  /** The full timeline, when the platform returned it (current shape); else null. */
  readonly timeline: Timeline | null;
}

/** The participation create's answer: `{user}` now, the bare actor before. */
export const ParticipationResponseSchema = z.union([
  z.object({ user: UserSchema }).transform((b) => b.user),
  UserSchema,
]);

/** Builds the `{"<plural>": [...], "next_cursor": …}` schema for one list endpoint. */
export function pageSchema<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object(
    { [key]: z.array(item), next_cursor: z.string().nullable() } as
      & {
        [P in K]: z.ZodArray<T>;
      }
      & { next_cursor: z.ZodNullable<z.ZodString> },
  );
}
