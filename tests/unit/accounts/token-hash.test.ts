// API calls find their token by the hash the api-key plugin stored when it made the
// token; the lookup hashes on its own, so the two must agree for every token.
import { defaultKeyHasher } from "@better-auth/api-key";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { storedTokenHash } from "@/lib/auth/tokens";
import { TOKEN_LENGTH, TOKEN_PREFIX } from "@/lib/auth/auth";

const letters = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");

describe("the hash an API call looks its token up by", () => {
  it("is the hash the api-key plugin stores, for tokens of Strata's form", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(letters, { minLength: TOKEN_LENGTH, maxLength: TOKEN_LENGTH }), async (chars) => {
        const token = `${TOKEN_PREFIX}${chars.join("")}`;
        expect(storedTokenHash(token)).toBe(await defaultKeyHasher(token));
      }),
    );
  });

  it("is the plugin's hash for any text, padding and non-ASCII included", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 80 }), async (text) => {
        expect(storedTokenHash(text)).toBe(await defaultKeyHasher(text));
      }),
    );
  });
});
