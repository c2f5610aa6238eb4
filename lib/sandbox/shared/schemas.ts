/**
 * Request-body schemas, the sandbox's own (it shares no code with the platform client so the
 * two can check each other). Messages read the way the platform's `errors` map reads.
 */
import * as z from "../../base/zod.ts";

const BLANK = "can't be blank";

/** A string that must be present and not only whitespace. */
function present(): z.ZodString {
  return z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? BLANK : "must be a string",
  }).refine((value) => value.trim() !== "", BLANK);
}

/** An object envelope that reports itself missing as "can't be blank". */
function envelope<T extends z.ZodRawShape>(shape: T): z.ZodObject<T, z.core.$strip> {
  return z.object(shape, {
    error: (issue) =>
      issue.input === undefined || issue.input === null ? BLANK : "must be an object",
  });
}

/** `POST /timelines`. */
export const TimelineCreate = envelope({ timeline: envelope({ name: present() }) });

/** `POST /timelines/{t}/messages`. */
export const MessageCreate = envelope({ message: envelope({ body: present() }) });

/** `POST /timelines/{t}/tasks` (`activate_at` is parsed by the handler). */
export const TaskCreate = envelope({
  task: envelope({ instructions: present(), activate_at: present() }),
});

/** `POST /timelines/{t}/webhook_endpoints`. */
export const EndpointCreate = envelope({
  webhook_endpoint: envelope({ description: present() }),
});

/** `POST /timelines/{t}/participations` (flat, unlike the creates). */
export const ParticipationCreate = envelope({ user_id: present() });

/** `POST /session`. */
export const SessionCreate = envelope({
  email_address: present(),
  password: present(),
  name: z.string().nullish(),
});

/** `PATCH /users/password`. */
export const PasswordChange = envelope({
  current_password: present(),
  password: present(),
  password_confirmation: present(),
});

/** `PATCH /contact_messages/{uuid}/status`. */
export const ContactStatusChange = envelope({
  contact_message: envelope({
    status: z.enum(["received", "closed", "spam"], {
      error: "is not included in the list",
    }),
  }),
});

/** `POST /contact_messages/{uuid}/notes`. */
export const NoteCreate = envelope({ note: envelope({ body: present() }) });

/** A handle is also a directory name under `agents/`, so it is kept path-safe. */
const HANDLE = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,39}$/;

const limit = (max: number): z.ZodOptional<z.ZodNumber> =>
  z.number().int().min(0).max(max).optional();

/** An integration URL: an absolute http(s) URL. */
const integrationUrl = z.string().refine((value) => {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, "must be an absolute http or https URL");

/** An integration secret: what the platform signs deliveries with (at least 16 characters). */
const integrationSecret = z.string().min(16, "must be at least 16 characters");

/** `PATCH /_sandbox/users/{uuid}/integration`: any of the three, absent ones kept. */
export const AdminIntegrationChange = envelope({
  integration_url: integrationUrl.nullable().optional(),
  integration_enabled: z.boolean().optional(),
  integration_secret: integrationSecret.optional(),
});

/** `POST /_sandbox/users`: the required trio plus optional, additive account settings. */
export const AdminUserCreate: z.ZodObject<{
  handle: z.ZodString;
  name: z.ZodString;
  kind: z.ZodEnum<{ human: "human"; ai: "ai" }>;
  email: z.ZodOptional<z.ZodEmail>;
  password: z.ZodOptional<z.ZodString>;
  roles: z.ZodOptional<z.ZodArray<z.ZodString>>;
  suspended: z.ZodOptional<z.ZodBoolean>;
  visible: z.ZodOptional<z.ZodBoolean>;
  about: z.ZodOptional<z.ZodNullable<z.ZodString>>;
  time_zone: z.ZodOptional<z.ZodString>;
  max_timelines: z.ZodOptional<z.ZodNumber>;
  max_participants: z.ZodOptional<z.ZodNumber>;
  max_pending_tasks: z.ZodOptional<z.ZodNumber>;
  integration_url: z.ZodOptional<z.ZodNullable<z.ZodString>>;
  integration_enabled: z.ZodOptional<z.ZodBoolean>;
  integration_secret: z.ZodOptional<z.ZodString>;
}, z.core.$strip> = envelope({
  handle: present().refine((h) => HANDLE.test(h), "must be 1-40 letters, digits, _ or -"),
  name: present(),
  kind: z.enum(["human", "ai"], { error: "must be human or ai" }),
  email: z.email("is not an email address").optional(),
  password: z.string().min(1, BLANK).optional(),
  roles: z.array(z.string()).optional(),
  suspended: z.boolean().optional(),
  visible: z.boolean().optional(),
  about: z.string().nullish(),
  time_zone: z.string().optional(),
  max_timelines: limit(100_000),
  max_participants: limit(100_000),
  max_pending_tasks: limit(100_000),
  integration_url: integrationUrl.nullable().optional(),
  integration_enabled: z.boolean().optional(),
  integration_secret: integrationSecret.optional(),
});

/** `POST /_sandbox/faults`. */
export const AdminFaultCreate = envelope({
  path: present().refine((source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  }, "is not a valid regular expression"),
  status: z.number().int().min(100).max(599).optional(),
  count: z.number().int().min(1).max(1_000_000).default(1),
  delay_ms: z.number().int().min(0).max(600_000).optional(),
  method: z.string().optional(),
  commit: z.boolean().optional(),
  body: z.enum(["truncate", "cut"]).optional(),
}).refine((f) => f.status !== undefined || f.delay_ms !== undefined || f.body !== undefined, {
  message: "needs a status, a delay_ms, a body or a combination",
  path: ["base"],
});

/** `POST /_sandbox/contact_messages` (seeds the admin-only inbox). */
export const AdminContactCreate = envelope({
  name: present(),
  email_address: present(),
  body: present(),
  user_id: z.string().optional(),
});
