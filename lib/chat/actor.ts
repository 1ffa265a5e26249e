// What every operation starts from: who asks (the actor), their input validated
// with a zod schema, and the admin check.
import { z } from "zod";
import type { UserRole } from "../db/users";
import { AppError, assertStorableText, invalidInput } from "../errors";

/** Who is asking: resolved once per request by lib/auth/current-user.ts. */
export type Actor = { id: string; role: UserRole };

export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInput(result.error);
  assertStorableText(result.data);
  return result.data;
}

export function assertAdmin(actor: Actor): void {
  if (actor.role !== "admin") throw new AppError("forbidden", "Only the admin can do this.");
}
