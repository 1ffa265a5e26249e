// What the token form sends, apart from the token library so that the browser can take
// its type from the same schema the server parses with (zod only: client-importable).
import { z } from "zod";

export const tokenNameSchema = z
  .string()
  .trim()
  .min(1, { message: "Give the token a name." })
  .max(64, { message: "The token name is too long: at most 64 characters." });

/** A name, and an expiry of never, 30 or 90 days. A bare name is a token that never expires. */
export const newTokenSchema = z.union([
  tokenNameSchema.transform((name) => ({ name, expiresInDays: null })),
  z.object({ name: tokenNameSchema, expiresInDays: z.union([z.literal(30), z.literal(90), z.null()]).default(null) }),
]);
