// The rule for new passwords, as the server and the forms apply it.
import { describe, expect, it } from "vitest";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, checkNewPassword } from "../../../lib/auth/password-policy";

describe("new passwords", () => {
  it("are 12 to 128 characters long, each bound named in the refusal", () => {
    expect(checkNewPassword("x7#Kq!2mZ@9")).toEqual({ ok: false, message: `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.` });
    expect(checkNewPassword("x7#Kq!2mZ@9p")).toEqual({ ok: true });
    const long = "correct horse battery staple ".repeat(5);
    expect(checkNewPassword(long.slice(0, MAX_PASSWORD_LENGTH))).toEqual({ ok: true });
    expect(checkNewPassword(long.slice(0, MAX_PASSWORD_LENGTH + 1))).toEqual({ ok: false, message: "The password is too long: use at most 128 characters." });
  });

  it("are refused when guessable: common passwords and their variations, keyboard rows, repeats, the user's own email", () => {
    for (const password of ["password1234", "Password1234!", "qwertyuiop12", "aaaaaaaaaaaa", "iloveyou2024"]) {
      const verdict = checkNewPassword(password);
      expect(verdict.ok, password).toBe(false);
      expect(verdict.ok ? "" : verdict.message).toMatch(/^The password is too easy to guess/);
    }
    expect(checkNewPassword("zebrastripes", []).ok).toBe(true);
    expect(checkNewPassword("zebrastripes", ["zebrastripes@example.com"])).toMatchObject({ ok: false, message: expect.stringContaining("contains your email or name") });
  });
});
