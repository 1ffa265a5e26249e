// The rule of "Undo this compaction": what may be undone, and what comes back.
import { describe, expect, it } from "vitest";
import { planUndo, type UndoTarget } from "../../../lib/compression/undo";

const target = (patch: Partial<UndoTarget> = {}): UndoTarget => ({
  id: "top",
  level: 2,
  fromSeq: 1,
  toSeq: 40,
  supersededById: null,
  undone: false,
  childIds: [],
  ...patch,
});

describe("planUndo", () => {
  it("undoes an active level-1 summary and reactivates nothing: its messages come back", () => {
    expect(planUndo(target({ level: 1 }), null)).toEqual({ kind: "allowed", plan: { undo: ["top"], reactivate: [] } });
  });

  it("undoing a merge brings its children back, exactly those", () => {
    const decision = planUndo(target({ childIds: ["a", "b", "c"] }), null);
    expect(decision).toEqual({ kind: "allowed", plan: { undo: ["top"], reactivate: ["a", "b", "c"] } });
  });

  it("refuses a summary merged into a higher level, naming the one to undo first", () => {
    const decision = planUndo(target({ level: 1, supersededById: "parent" }), { level: 2, fromSeq: 1, toSeq: 80 });
    expect(decision.kind).toBe("refused");
    if (decision.kind !== "refused") return;
    expect(decision.reason).toBe("merged");
    expect(decision.message).toContain("level 2 summary of #1–#80");
  });

  it("refuses what is already undone (by a rewind or an earlier undo)", () => {
    const decision = planUndo(target({ undone: true, childIds: ["a"] }), null);
    expect(decision).toMatchObject({ kind: "refused", reason: "already_undone" });
  });

  it("an undone record that was also merged is refused as undone first", () => {
    expect(planUndo(target({ undone: true, supersededById: "p" }), null)).toMatchObject({ kind: "refused", reason: "already_undone" });
  });
});
