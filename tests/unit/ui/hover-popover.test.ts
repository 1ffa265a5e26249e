import { describe, expect, it } from "vitest";
import { nextPopoverState, type PopoverEvent, type PopoverState } from "../../../components/ui/hover-popover";

const run = (events: PopoverEvent[], from: PopoverState = "closed") => events.reduce(nextPopoverState, from);

describe("hover popover", () => {
  it("stays open on the click that follows a hover", () => {
    expect(run(["enter", "click"])).toBe("pinned");
    expect(run(["enter", "click", "leave"])).toBe("pinned");
  });

  it("closes on leave after a hover, on a second click, and on dismiss", () => {
    expect(run(["enter", "leave"])).toBe("closed");
    expect(run(["enter", "click", "click"])).toBe("closed");
    expect(run(["click", "dismiss"])).toBe("closed");
  });

  it("opens on a click without a hover (keyboard)", () => {
    expect(run(["click"])).toBe("pinned");
  });
});
