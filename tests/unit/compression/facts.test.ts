import { describe, expect, it } from "vitest";
import { capSummary, cutOutsideFacts, extractFacts, reconcileFacts } from "@/lib/compression/facts";
import { elideMiddle } from "@/lib/compression/elide";
import { shorten } from "@/lib/compression/transcript-format";
import { counter } from "./fakes";

describe("facts", () => {
  it("reads line facts to the end of the line and inline facts to the end of the word", () => {
    const text = "intro\nFACT owner=Dana Scully\n- FACT port=5433.\nWe agreed FACT color=blue, then FACT size=XL; done\nFACT a=1; FACT b=2";
    expect(extractFacts(text)).toEqual(["FACT owner=Dana Scully", "FACT port=5433", "FACT color=blue", "FACT size=XL", "FACT a=1", "FACT b=2"]);
  });

  it("never cuts inside a fact", () => {
    const text = "abc FACT color=blue def";
    expect(cutOutsideFacts(text, 14)).toBe(4);
    expect(cutOutsideFacts(text, 2)).toBe(2);
    const shortened = shorten(`${"x".repeat(95)} FACT color=blue and more ${"y".repeat(200)}`, 100);
    expect(extractFacts(shortened)).toEqual(["FACT color=blue"]);
  });

  it("restores lost facts, keeps the newest value last and drops context-only facts", () => {
    expect(reconcileFacts("summary\nFACT color=red", ["FACT color=blue", "FACT color=red", "FACT n=1"])).toBe(
      "summary\nFACT color=red\nFACT color=blue\nFACT n=1\nFACT color=red",
    );
    expect(reconcileFacts("summary\nFACT old=1\nFACT new=2", ["FACT new=2"], ["FACT old=1"])).toBe("summary\nFACT new=2");
  });

  it("caps prose but never facts", () => {
    const capped = capSummary(`${"word ".repeat(100)}\nFACT a=1\nFACT b=2`, 60);
    expect(capped.length).toBeLessThanOrEqual(60);
    expect(capped.endsWith("FACT a=1\nFACT b=2")).toBe(true);
    expect(capSummary("FACT a=1\nFACT b=2", 5)).toBe("FACT a=1\nFACT b=2");
  });

  it("elision keeps head, tail and the facts of the middle", () => {
    const content = `HEAD ${"a".repeat(4000)}\nFACT secret=42\n${"b".repeat(4000)} TAIL`;
    const elided = elideMiddle(content, 300, counter);
    expect(counter.count(elided)).toBeLessThanOrEqual(300);
    expect(elided.startsWith("HEAD")).toBe(true);
    expect(elided.endsWith("TAIL")).toBe(true);
    expect(elided).toMatch(/\[… [\d,]+ tokens elided …\]/);
    expect(extractFacts(elided)).toEqual(["FACT secret=42"]);
  });
});
