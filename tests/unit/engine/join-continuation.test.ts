// Continue adds the space a stopped reply and its continuation need between them, and only that.
import { describe, expect, it } from "vitest";
import { continuationSeparator } from "../../../lib/chat/join-continuation";

const join = (partial: string, continuation: string) => partial + continuationSeparator(partial, continuation) + continuation;

describe("continuationSeparator", () => {
  it("puts a space between a reply cut after a word or a sentence and a continuation starting with a word", () => {
    expect(join("The quick brown", "fox jumps")).toBe("The quick brown fox jumps");
    expect(join("It ends here.", "Then more")).toBe("It ends here. Then more");
    expect(join("Values: 1, 2,", "3 and 4")).toBe("Values: 1, 2, 3 and 4");
    expect(join("see", "**this**")).toBe("see **this**");
    expect(join("Überall", "ändert sich")).toBe("Überall ändert sich");
  });

  it("adds nothing when either side already has the space, or the continuation attaches to the left", () => {
    expect(join("The quick ", "brown")).toBe("The quick brown");
    expect(join("The quick", " brown")).toBe("The quick brown");
    expect(join("The end", ".")).toBe("The end.");
    expect(join("a list:\n", "- one")).toBe("a list:\n- one");
    expect(join("(", "aside)")).toBe("(aside)");
    expect(join("well-", "known")).toBe("well-known");
    expect(join("", "Start")).toBe("Start");
    expect(join("Start", "")).toBe("Start");
  });
});
