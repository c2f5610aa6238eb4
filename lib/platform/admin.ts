/** Admin-only surfaces: contact messages and the notes on them. Non-admins get 403 not_an_admin. */
import * as z from "../base/zod.ts";
import type { CallOptions, Transport } from "./http.ts";
import { fetchPage, type ListSpec, ownUuid, paginate } from "./lists.ts";
import type { ListOptions, Page, Paginator } from "./pagination.ts";
import { type ContactMessage, ContactMessageSchema, type Note, NoteSchema } from "./schemas.ts";

const ContactEnvelope = z.object({ contact_message: ContactMessageSchema });
const NoteEnvelope = z.object({ note: NoteSchema });
const NOTES: ListSpec<typeof NoteSchema> = {
  path: "/notes",
  key: "notes",
  item: NoteSchema,
  idOf: ownUuid,
};

/** Filters for listing contact messages. */
export interface ContactMessageListOptions extends ListOptions {
  /** received | closed | spam (anything else is a 400 invalid_filter). */
  readonly status?: string;
}

function contactSpec(options: ContactMessageListOptions): ListSpec<typeof ContactMessageSchema> {
  return {
    path: "/contact_messages",
    key: "contact_messages",
    item: ContactMessageSchema,
    idOf: ownUuid,
    query: { status: options.status },
  };
}

/** `/contact_messages…`. */
export class ContactMessagesApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Walks contact messages newest first. */
  list(options: ContactMessageListOptions = {}): Paginator<ContactMessage> {
    return paginate(this.#t, contactSpec(options), options);
  }

  /** One page of contact messages. */
  page(options: ContactMessageListOptions = {}): Promise<Page<ContactMessage>> {
    return fetchPage(this.#t, contactSpec(options), options.before, options);
  }

  /** One contact message. */
  async get(uuid: string, options: CallOptions = {}): Promise<ContactMessage> {
    const body = await this.#t.json(
      { method: "GET", path: "/contact_messages/{uuid}", params: { uuid }, ...options },
      ContactEnvelope,
    );
    return body.contact_message;
  }

  /** Sets a contact message's status (received | closed | spam). */
  async setStatus(
    uuid: string,
    status: string,
    options: CallOptions = {},
  ): Promise<ContactMessage> {
    const body = await this.#t.json({
      method: "PATCH",
      path: "/contact_messages/{uuid}/status",
      params: { uuid },
      json: { contact_message: { status } },
      ...options,
    }, ContactEnvelope);
    return body.contact_message;
  }

  /** Adds a note to a contact message; returns the note. */
  async addNote(uuid: string, body: string, options: CallOptions = {}): Promise<Note> {
    const reply = await this.#t.json({
      method: "POST",
      path: "/contact_messages/{uuid}/notes",
      params: { uuid },
      json: { note: { body } },
      ...options,
    }, NoteEnvelope);
    return reply.note;
  }
}

/** `/notes…`. */
export class NotesApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Walks notes newest first. */
  list(options: ListOptions = {}): Paginator<Note> {
    return paginate(this.#t, NOTES, options);
  }

  /** One page of notes. */
  page(options: ListOptions = {}): Promise<Page<Note>> {
    return fetchPage(this.#t, NOTES, options.before, options);
  }

  /** One note. */
  async get(uuid: string, options: CallOptions = {}): Promise<Note> {
    const body = await this.#t.json(
      { method: "GET", path: "/notes/{uuid}", params: { uuid }, ...options },
      NoteEnvelope,
    );
    return body.note;
  }
}

/** The admin namespace: `contactMessages` and `notes`. */
export class AdminApi {
  /** Contact-form submissions. */
  readonly contactMessages: ContactMessagesApi;
  /** Notes on contact messages. */
  readonly notes: NotesApi;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.contactMessages = new ContactMessagesApi(transport);
    this.notes = new NotesApi(transport);
  }
}
