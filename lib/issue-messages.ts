// What a refused field says. zod's own English ("Too big: expected number to be <=1",
// "Invalid input: expected int, received number") names its types and operators, not
// what the person sending the value has to change; the messages our schemas set
// themselves are written for people already and pass through unchanged.
import { z } from "zod";

type Issue = z.core.$ZodIssue;

const english = z.locales.en();

/** zod's default message for `issue` (the one it puts there when a schema sets none). */
function defaultMessage(issue: Issue): string | undefined {
  const made = english.localeError(issue as Parameters<typeof english.localeError>[0]);
  return typeof made === "string" ? made : made?.message;
}

function isDefault(issue: Issue): boolean {
  // The default of a wrong type names what was received, which the issue does not keep.
  if (issue.code === "invalid_type") return issue.message.startsWith(`Invalid input: expected ${issue.expected}`);
  return issue.message === defaultMessage(issue);
}

const amount = (value: number | bigint) => (typeof value === "number" ? value.toLocaleString("en-US", { maximumFractionDigits: 20 }) : value.toLocaleString("en-US"));
const plural = (count: number | bigint, noun: string) => `${amount(count)} ${noun}${count === 1 || count === 1n ? "" : "s"}`;

const TYPE_NAMES: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  string: "text",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  bigint: "a whole number",
  date: "a date",
};

const FORMAT_NAMES: Record<string, string> = {
  email: "an email address",
  url: "a URL",
  uuid: "a UUID",
  datetime: "a date and time (ISO 8601)",
  date: "a date (YYYY-MM-DD)",
};

function bound(issue: Extract<Issue, { code: "too_big" | "too_small" }>): string {
  const big = issue.code === "too_big";
  const limit = big ? (issue as { maximum: number | bigint }).maximum : (issue as { minimum: number | bigint }).minimum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case "string":
      if (!big && limit === 1) return "Must not be empty.";
      return `Must be ${big ? "at most" : "at least"} ${plural(limit, "character")} long.`;
    case "array":
    case "set":
      if (!big && limit === 1) return "Must not be empty.";
      return `Must have ${big ? "at most" : "at least"} ${plural(limit, "item")}.`;
    case "file":
      return `Must be ${big ? "at most" : "at least"} ${plural(limit, "byte")}.`;
    default:
      return `Must be ${big ? (inclusive ? "at most" : "less than") : inclusive ? "at least" : "more than"} ${amount(limit)}.`;
  }
}

/** What `issue` says to a person: zod's defaults rewritten, our own messages as written. */
export function issueMessage(issue: Issue): string {
  if (!isDefault(issue)) return issue.message;
  switch (issue.code) {
    case "too_big":
    case "too_small":
      return bound(issue);
    case "invalid_type": {
      const wanted = TYPE_NAMES[issue.expected] ?? issue.expected;
      return issue.message.endsWith("received undefined") ? `Required: ${wanted}.` : `Must be ${wanted}.`;
    }
    case "invalid_value":
      return issue.values.length === 1
        ? `Must be ${JSON.stringify(issue.values[0])}.`
        : `Must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}.`;
    case "unrecognized_keys":
      return `Unknown field${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.join(", ")}.`;
    case "invalid_format": {
      const name = FORMAT_NAMES[issue.format];
      return name ? `Must be ${name}.` : issue.message;
    }
    case "not_multiple_of":
      return `Must be a multiple of ${amount(issue.divisor)}.`;
    default:
      return issue.message;
  }
}
