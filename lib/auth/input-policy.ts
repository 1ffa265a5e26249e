// What the auth library's endpoints may be given, checked before any of them runs: a
// length bound for every text field they store or compare (the body as a whole is
// bounded in lib/auth/request-body.ts), and the password rule for every new password.
import { APIError } from "better-auth/api";
import { z } from "zod";
import { MAX_PASSWORD_LENGTH, checkNewPassword } from "./password-policy";

import { MAX_CHECKED_PASSWORD_LENGTH, MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from "./field-limits";

export { MAX_CHECKED_PASSWORD_LENGTH, MAX_EMAIL_LENGTH, MAX_NAME_LENGTH };
const MAX_URL_LENGTH = 2048;

// The fields the enabled endpoints take, with the words an error uses for each; any
// other text field gets the URL bound.
const FIELDS: Record<string, { label: string; max: number }> = {
  name: { label: "name", max: MAX_NAME_LENGTH },
  email: { label: "email address", max: MAX_EMAIL_LENGTH },
  newEmail: { label: "email address", max: MAX_EMAIL_LENGTH },
  password: { label: "password", max: MAX_CHECKED_PASSWORD_LENGTH },
  currentPassword: { label: "current password", max: MAX_CHECKED_PASSWORD_LENGTH },
  newPassword: { label: "new password", max: MAX_PASSWORD_LENGTH },
};

const bodySchema = z.record(z.string(), z.unknown());

function refuse(message: string, code: string): never {
  throw new APIError("BAD_REQUEST", { message, code });
}

/** Every text field of `body` within its bound: a 400 naming the field and the limit otherwise. */
export function checkFieldLengths(body: unknown): void {
  const fields = bodySchema.safeParse(body);
  if (!fields.success) return;
  for (const [name, value] of Object.entries(fields.data)) {
    if (typeof value !== "string") continue;
    const { label, max } = FIELDS[name] ?? { label: name, max: MAX_URL_LENGTH };
    if (value.length > max) refuse(`The ${label} is too long: at most ${max} characters.`, "FIELD_TOO_LONG");
  }
}

// Endpoints that set a password, and the body field that holds it.
const NEW_PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/change-password": "newPassword",
  "/reset-password": "newPassword",
  "/set-password": "newPassword",
};

/** A new password must pass lib/auth/password-policy.ts; the email and name count as guessable. */
export function checkNewPasswordOf(path: string, body: unknown): void {
  const field = NEW_PASSWORD_FIELDS[path];
  const fields = bodySchema.safeParse(body);
  if (!field || !fields.success) return;
  const password = fields.data[field];
  if (typeof password !== "string") return;
  const inputs = [fields.data.email, fields.data.name].filter((value): value is string => typeof value === "string");
  const verdict = checkNewPassword(password, inputs);
  if (!verdict.ok) refuse(verdict.message, "PASSWORD_REFUSED");
}
