/**
 * The response schemas of the account side of the platform: trust, users, your dashboard and
 * your credential sessions (lib/platform/schemas.ts re-exports them with the rest).
 */
import * as z from "../base/zod.ts";
import {
  ActorSchema,
  type Loose,
  type Nul,
  type Obj,
  type Opt,
  type OptNul,
  type Str,
  Timestamp,
} from "./schema_shapes.ts";

/** The directional trust flags between you and another user. */
export const TrustSchema: Obj<{
  you_trust: z.ZodBoolean;
  trusts_you: z.ZodBoolean;
  mutual: z.ZodBoolean;
}> = z.object({
  you_trust: z.boolean(),
  trusts_you: z.boolean(),
  mutual: z.boolean(),
});
/** Trust between you and a user; `mutual` is what sharing a timeline needs. */
export type Trust = z.infer<typeof TrustSchema>;

/**
 * A user in subject form. Which clusters are present depends on your access tier, so all
 * but the base identity are optional; `trust` is optional because older participation
 * responses return the bare actor.
 */
export const UserSchema: Obj<{
  uuid: Str;
  handle: Str;
  name: Str;
  kind: Str;
  trust: Opt<typeof TrustSchema>;
  suspended: Opt<z.ZodBoolean>;
  max_timelines: Opt<z.ZodNumber>;
  max_participants: Opt<z.ZodNumber>;
  max_pending_tasks: Opt<z.ZodNumber>;
  about: OptNul<Str>;
  time_zone: Opt<Str>;
  roles: Opt<z.ZodArray<Str>>;
  integration_url: OptNul<Str>;
  integration_enabled: Opt<z.ZodBoolean>;
  integration_failure_count: Opt<z.ZodNumber>;
  visible: Opt<z.ZodBoolean>;
  created_at: Opt<Str>;
  updated_at: Opt<Str>;
  creator: Opt<z.ZodUnknown>;
}> = ActorSchema.extend({
  trust: TrustSchema.optional(),
  suspended: z.boolean().optional(),
  max_timelines: z.number().optional(),
  max_participants: z.number().optional(),
  max_pending_tasks: z.number().optional(),
  about: z.string().nullable().optional(),
  time_zone: z.string().optional(),
  roles: z.array(z.string()).optional(),
  integration_url: z.string().nullable().optional(),
  integration_enabled: z.boolean().optional(),
  integration_failure_count: z.number().optional(),
  visible: z.boolean().optional(),
  created_at: Timestamp.optional(),
  updated_at: Timestamp.optional(),
  creator: z.unknown().optional(),
});
/** A user as returned by the users endpoints (fields outside your tier are absent). */
export type User = z.infer<typeof UserSchema>;

/** Free-form dashboard sections: known string fields typed, everything else kept. */
export const DashboardSectionSchema: Loose<Record<never, never>> = z.looseObject({});

/** `GET /users/dashboard`: only `identity` is required; older dashboards omit the rest. */
export const DashboardSchema: Obj<{
  identity: typeof UserSchema;
  environment: Opt<
    Loose<{ name: Opt<Str>; summary: Opt<Str>; you_are: Opt<Str>; concepts_url: Opt<Str> }>
  >;
  interaction: Opt<typeof DashboardSectionSchema>;
  account: Opt<typeof DashboardSectionSchema>;
  documentation: Opt<
    Loose<{
      user_guide: Opt<Str>;
      api: Opt<Str>;
      reference: Opt<Str>;
      openapi: Opt<Str>;
      changelog: Opt<Str>;
    }>
  >;
}> = z.object({
  identity: UserSchema,
  environment: z.looseObject({
    name: z.string().optional(),
    summary: z.string().optional(),
    you_are: z.string().optional(),
    concepts_url: z.string().optional(),
  }).optional(),
  interaction: DashboardSectionSchema.optional(),
  account: DashboardSectionSchema.optional(),
  documentation: z.looseObject({
    user_guide: z.string().optional(),
    api: z.string().optional(),
    reference: z.string().optional(),
    openapi: z.string().optional(),
    changelog: z.string().optional(),
  }).optional(),
});
/** Your own dashboard: identity plus orientation sections. */
export type Dashboard = z.infer<typeof DashboardSchema>;

/** A credential row (`api` bearer token or `web` browser cookie). */
export const SessionSchema: Obj<{
  uuid: Str;
  name: Nul<Str>;
  ip_address: OptNul<Str>;
  user_agent: OptNul<Str>;
  created_at: Str;
  last_used_at: OptNul<Str>;
  kind: Str;
  current: z.ZodBoolean;
}> = z.object({
  uuid: z.string(),
  name: z.string().nullable(),
  ip_address: z.string().nullable().optional(),
  user_agent: z.string().nullable().optional(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable().optional(),
  kind: z.string(),
  current: z.boolean(),
});
/** One of your sessions. */
export type Session = z.infer<typeof SessionSchema>;

/** `POST /session` 201. Older platforms returned only `{name, created_at}` as the session. */
export const MintedSessionSchema: Obj<{
  token: Str;
  session: Opt<
    Obj<{
      uuid: Opt<Str>;
      name: OptNul<Str>;
      created_at: Opt<Str>;
      kind: Opt<Str>;
      current: Opt<z.ZodBoolean>;
    }>
  >;
  start_here: Opt<Str>;
}> = z.object({
  token: z.string().min(1),
  session: z.object({
    uuid: z.string().optional(),
    name: z.string().nullable().optional(),
    created_at: Timestamp.optional(),
    kind: z.string().optional(),
    current: z.boolean().optional(),
  }).optional(),
  start_here: z.string().optional(),
});
/** A freshly minted token with its session row. The token is shown once. */
export type MintedSession = z.infer<typeof MintedSessionSchema>;
