// The compaction lock's rules in one process (no DATABASE_URL: the cross-instance part
// just runs): one holder at a time, a try that gives up while it is held, an edit that
// stops the background run here and then waits for the lock, and a background run that
// joins the one under way.
import { describe, expect, it } from "vitest";
import {
  backgroundRun,
  startBackgroundRun,
  withCompactionLock,
  withCompactionLockIfFree,
  withCompactionStoppedHere,
} from "../../../lib/chat/concurrency";

/** A promise and the function that settles it. */
function latch(): { done: Promise<void>; open: () => void } {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return { done, open };
}

describe("the compaction lock", () => {
  it("admits one holder at a time; a try while it is held runs nothing", async () => {
    const held = latch();
    const order: string[] = [];
    const first = withCompactionLock("c1", async () => {
      order.push("first in");
      await held.done;
      order.push("first out");
    });
    const second = withCompactionLock("c1", async () => void order.push("second"));
    expect(await withCompactionLockIfFree("c1", async () => order.push("tried"))).toEqual({ taken: false });
    // Another conversation's lock is another lock.
    expect(await withCompactionLockIfFree("c2", async () => "free")).toEqual({ taken: true, value: "free" });
    held.open();
    await Promise.all([first, second]);
    expect(order).toEqual(["first in", "first out", "second"]);
    expect(await withCompactionLockIfFree("c1", async () => "free again")).toEqual({ taken: true, value: "free again" });
  });

  it("an edit stops the background run here, then waits for it to let go of the lock", async () => {
    const started = latch();
    const seen: string[] = [];
    const run = startBackgroundRun("c3", (signal) =>
      withCompactionLock("c3", async () => {
        started.open();
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        seen.push("background stopped");
      }),
    );
    await started.done;
    expect(backgroundRun("c3")).toBeDefined();
    // A second start joins the run under way instead of starting another.
    const joined = startBackgroundRun("c3", async () => void seen.push("second run"));
    await withCompactionStoppedHere("c3", async () => void seen.push("edit"));
    await Promise.all([run, joined]);
    expect(seen).toEqual(["background stopped", "edit"]);
    expect(backgroundRun("c3")).toBeUndefined();
  });
});
