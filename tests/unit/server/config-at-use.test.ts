// Limits are read when they apply, not when their module loaded: a changed variable
// takes effect in a process whose modules are already imported (config() re-parses
// when a variable changed).
import { afterEach, describe, expect, it } from "vitest";
import { messageContentSchema } from "@/lib/chat/inputs";
import { readJsonBody } from "@/lib/http/handlers";

const saved = { chars: process.env.STRATA_MAX_MESSAGE_CHARS, bytes: process.env.STRATA_MAX_BODY_BYTES };
afterEach(() => {
  for (const [name, value] of [["STRATA_MAX_MESSAGE_CHARS", saved.chars], ["STRATA_MAX_BODY_BYTES", saved.bytes]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const jsonRequest = (body: string) => new Request("http://localhost/api/x", { method: "POST", headers: { "content-type": "application/json" }, body });

describe("configuration read at use", () => {
  it("the maximum message length follows STRATA_MAX_MESSAGE_CHARS after the module loaded", () => {
    process.env.STRATA_MAX_MESSAGE_CHARS = "10";
    const refused = messageContentSchema.safeParse("x".repeat(11));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("The message is longer than the maximum of 10 characters.");
    expect(messageContentSchema.safeParse("x".repeat(10)).success).toBe(true);

    process.env.STRATA_MAX_MESSAGE_CHARS = "20";
    expect(messageContentSchema.safeParse("x".repeat(11)).success).toBe(true);
    expect(messageContentSchema.safeParse("x".repeat(21)).error?.issues[0]?.message).toBe("The message is longer than the maximum of 20 characters.");
  });

  it("the body limit follows STRATA_MAX_BODY_BYTES after the module loaded", async () => {
    const body = JSON.stringify({ text: "y".repeat(2000) });
    process.env.STRATA_MAX_BODY_BYTES = "1024";
    await expect(readJsonBody(jsonRequest(body))).rejects.toThrow("The request body is larger than 1,024 bytes.");
    process.env.STRATA_MAX_BODY_BYTES = "4096";
    await expect(readJsonBody(jsonRequest(body))).resolves.toEqual({ text: "y".repeat(2000) });
  });
});
