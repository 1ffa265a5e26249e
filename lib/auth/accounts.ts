// Accounts made by the server itself (the strata CLI, benchmarks): through the library's
// own sign-up, so the password is validated and hashed exactly as for the form, but
// never refused by closed sign-ups, and without leaving a session behind.
import { z } from "zod";
import { isAPIError } from "better-auth/api";
import { getDb } from "../db/client";
import { deleteSession, findUserByEmail, type UserRecord } from "../db/users";
import { AppError } from "../errors";
import { getAuth } from "./auth";

const emailSchema = z.email({ message: "That is not an email address." });

export async function createAccount(email: string, password: string): Promise<UserRecord> {
  const address = emailSchema.safeParse(email.trim().toLowerCase());
  if (!address.success) throw new AppError("invalid_input", address.error.issues[0]!.message);
  const db = await getDb();
  if (await findUserByEmail(db, address.data)) throw new AppError("conflict", `An account for ${address.data} exists already.`);
  try {
    const { token, user } = await (await getAuth()).api.signUpEmail({
      body: { email: address.data, password, name: address.data.split("@")[0]! },
    });
    if (token) await deleteSession(db, token);
    return (await findUserByEmail(db, user.email))!;
  } catch (error) {
    if (isAPIError(error)) throw new AppError("invalid_input", error.message);
    throw error;
  }
}
