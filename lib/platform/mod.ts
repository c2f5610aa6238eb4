/**
 * The BaseCradle platform client: typed calls for every REST endpoint, zod-checked responses,
 * problem+json errors as classes, lazy cursor pagination and deterministic Idempotency-Keys.
 * Knows nothing about agents.
 *
 * @module
 */
export { PlatformClient } from "./client.ts";
export {
  DEFAULT_BASE_URL,
  ENV_VARS,
  type EnvReader,
  optionsFromEnv,
  parseBaseUrl,
  type PlatformClientOptions,
} from "./config.ts";
export type { Credentials } from "./auth.ts";
export {
  type CallOptions,
  CREATE_BACKOFF_MS,
  type CreateOptions,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
} from "./http.ts";
export {
  ConfigurationError,
  ConflictError,
  ForbiddenError,
  GoneError,
  InvalidRequestError,
  MalformedResponseError,
  NotFoundError,
  outcomeUnknown,
  OutcomeUnknownError,
  PayloadTooLargeError,
  PlatformError,
  RateLimitedError,
  RefusedUrlError,
  ServerError,
  TransportError,
  type TransportFailure,
  UnauthorizedError,
  UnprocessableError,
} from "./errors.ts";
export { type ListOptions, type Page, Paginator } from "./pagination.ts";
export {
  IDEMPOTENCY_NAMESPACE,
  idempotencyKey,
  idempotencyName,
  KEYED_KINDS,
  type KeyedKind,
  type KeyParts,
  uuid5,
} from "./idempotency.ts";
export {
  ActorSchema,
  AssetFileSchema,
  AssetSchema,
  ContactMessageSchema,
  DashboardSchema,
  MessageSchema,
  MintedSessionSchema,
  NoteSchema,
  ParticipantSchema,
  ReferenceSchema,
  SessionSchema,
  TaskSchema,
  TimelineItemSchema,
  TimelineSchema,
  TimelineWithItemsSchema,
  TrustSchema,
  UnknownItemSchema,
  UserSchema,
  WebhookEndpointSchema,
  WebhookEventSchema,
} from "./schemas.ts";
export {
  DashboardSectionSchema,
  EventEndpointSchema,
  type ItemBase,
  type Loose,
  type Nul,
  type Obj,
  type Opt,
  type OptNul,
  type Str,
  type WebhookEventWire,
} from "./schemas.ts";
export type {
  Actor,
  Asset,
  AssetFile,
  ContactMessage,
  Dashboard,
  Item,
  LockResult,
  Message,
  MintedSession,
  Note,
  Participant,
  Reference,
  Session,
  Task,
  Timeline,
  TimelineItem,
  TimelineWithItems,
  Trust,
  UnknownItem,
  User,
  WebhookEndpoint,
  WebhookEvent,
} from "./schemas.ts";
export type { MintInput, SessionApi } from "./session.ts";
export type { SessionsApi } from "./sessions.ts";
export type { PasswordApi, PasswordChange } from "./password.ts";
export type { UsersApi } from "./users.ts";
export type { TimelineInput, TimelinesApi } from "./timelines.ts";
export type { MessageListOptions, MessagesApi } from "./messages.ts";
export type { AssetListOptions, AssetsApi, DownloadedBlob } from "./assets.ts";
export { DOWNLOAD_MAX_BYTES } from "./assets.ts";
export { BlobTooLargeError } from "./capped_body.ts";
export type { TaskListOptions, TasksApi } from "./tasks.ts";
export {
  clearedFields,
  ClearedText,
  type SealVerdict,
  type SurfaceFields,
  type TextSurface,
} from "./cleared.ts";
export type { WebhookEndpointListOptions, WebhookEndpointsApi } from "./webhook_endpoints.ts";
export type {
  IngestOptions,
  IngestResult,
  WebhookEventListOptions,
  WebhookEventsApi,
} from "./webhook_events.ts";
export type { AdminApi, ContactMessageListOptions, ContactMessagesApi, NotesApi } from "./admin.ts";
