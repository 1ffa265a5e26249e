// What a new password must be: at least 12 characters, at most 128, and not guessable
// by zxcvbn's dictionaries of common passwords, names and words with their usual
// variations (score 3 of 4 at least: "password1234", "iloveyou2024" and keyboard walks
// fail, a few unrelated words pass). The server checks every new password
// (lib/auth/input-policy.ts); the forms run the same function to say so before sending.
// No server imports: the browser loads this module on demand.
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;
const MIN_SCORE = 3;

// zxcvbn names its warnings by key (translations are a separate package).
const WARNINGS: Record<string, string> = {
  topTen: "it is one of the most common passwords",
  topHundred: "it is one of the most common passwords",
  common: "it is a common password",
  similarToCommon: "it is close to a common password",
  wordByItself: "a single word is easy to guess",
  namesByThemselves: "names are easy to guess",
  commonNames: "common names are easy to guess",
  userInputs: "it contains your email or name",
  straightRow: "it is a keyboard pattern",
  keyPattern: "it is a keyboard pattern",
  simpleRepeat: "it repeats characters",
  extendedRepeat: "it repeats a pattern",
  sequences: "it is a sequence",
  recentYears: "years are easy to guess",
  dates: "dates are easy to guess",
};

let checker: ZxcvbnFactory | undefined;

export type PasswordVerdict = { ok: true } | { ok: false; message: string };

/** Whether `password` may be set; `userInputs` (the email, the name) count as guessable too. */
export function checkNewPassword(password: string, userInputs: string[] = []): PasswordVerdict {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return { ok: false, message: `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.` };
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return { ok: false, message: `The password is too long: use at most ${MAX_PASSWORD_LENGTH} characters.` };
  }
  checker ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  // An email counts by its parts too: "zebrastripes@example.com" makes "zebrastripes" guessable.
  const inputs = userInputs.flatMap((input) => [input, ...input.split(/[^\p{L}\p{N}]+/u)]).filter((input) => input.length >= 3);
  const result = checker.check(password, inputs);
  if (result.score >= MIN_SCORE) return { ok: true };
  const warning = result.feedback.warning ? WARNINGS[result.feedback.warning] : undefined;
  const hint = warning ? ` (${warning})` : "";
  return { ok: false, message: `The password is too easy to guess${hint}: use a few unrelated words or a password manager.` };
}
