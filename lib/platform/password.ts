/** Changing your password. Signs nothing out; not replayable. */
import type { CallOptions, Transport } from "./http.ts";

/** The three fields the platform requires. */
export interface PasswordChange {
  /** The password in use now. */
  readonly currentPassword: string;
  /** The new password (10+ chars, mixed case, a number or symbol). */
  readonly password: string;
  /** The new password again. */
  readonly passwordConfirmation: string;
}

/** `PATCH /users/password`. */
export class PasswordApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Changes the password; any 2xx (204 now, 200 with a message before) is success. */
  change(input: PasswordChange, options: CallOptions = {}): Promise<void> {
    return this.#t.empty({
      method: "PATCH",
      path: "/users/password",
      json: {
        current_password: input.currentPassword,
        password: input.password,
        password_confirmation: input.passwordConfirmation,
      },
      ...options,
    });
  }
}
