// The sign-in page's ?next= validator: only a path of this very site gets through.
import { describe, expect, it } from "vitest";
import { safeNextPath, signInPathFor } from "../../lib/auth/next-path";

describe("safeNextPath", () => {
  it.each([
    ["/c/0191e0b2-1234-7abc-8def-0123456789ab", "/c/0191e0b2-1234-7abc-8def-0123456789ab"],
    ["/account", "/account"],
    ["/settings?tab=models#top", "/settings?tab=models#top"],
    ["/", "/"],
    ["/a/../admin", "/admin"],
    ["/search?q=%2F%2Fevil.example", "/search?q=%2F%2Fevil.example"],
  ])("keeps the same-origin path %s", (raw, expected) => {
    expect(safeNextPath(raw)).toBe(expected);
  });

  it.each([
    ["a protocol-relative address", "//evil.example"],
    ["a protocol-relative address with a path", "//evil.example/c/1"],
    ["three slashes", "///evil.example"],
    ["a backslash after the slash", "/\\evil.example"],
    ["a backslash first", "\\\\evil.example"],
    ["a backslash inside", "/c/..\\..\\evil"],
    ["an absolute https URL", "https://evil.example/"],
    ["an absolute http URL", "http://localhost/account"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a data: URL", "data:text/html,<script>alert(1)</script>"],
    ["a relative path without a slash", "evil.example"],
    ["a tab that URL parsers strip", "/\t/evil.example"],
    ["a newline that URL parsers strip", "/\n/evil.example"],
    ["a carriage return", "/\r/evil.example"],
    ["a space", "/ /evil.example"],
    ["a NUL", "/\u0000/evil.example"],
    ["an encoded slash that becomes //", "/%2F/evil.example"],
    ["the sign-in page itself (a loop)", "/sign-in?next=/account"],
    ["the sign-up page", "/sign-up"],
    ["an empty string", ""],
    ["an overlong path", `/${"a".repeat(2048)}`],
  ])("refuses %s", (_label, raw) => {
    const result = safeNextPath(raw);
    // Whatever is kept must itself be a plain same-origin path.
    if (result !== null) {
      expect(result.startsWith("/") && !result.startsWith("//") && !result.includes("\\")).toBe(true);
      expect(new URL(result, "https://strata.example").origin).toBe("https://strata.example");
    }
    expect(result).toBeNull();
  });

  it.each([undefined, null, 42, ["/account"], { path: "/account" }])("refuses a non-string (%s)", (raw) => {
    expect(safeNextPath(raw)).toBeNull();
  });
});

describe("signInPathFor", () => {
  it("carries a deep link, encoded", () => {
    expect(signInPathFor("/c/abc?x=1&y=2")).toBe("/sign-in?next=%2Fc%2Fabc%3Fx%3D1%26y%3D2");
  });

  it("drops the home page and anything unsafe", () => {
    expect(signInPathFor("/")).toBe("/sign-in");
    expect(signInPathFor("//evil.example")).toBe("/sign-in");
    expect(signInPathFor(null)).toBe("/sign-in");
  });
});
