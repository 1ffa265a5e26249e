import { describe, expect, it } from "vitest";
import { planRewind } from "@/lib/compression/rewind";
import type { RewindCompaction } from "@/lib/compression/types";

const node = (id: string, fromSeq: number, toSeq: number, childIds: string[] = [], supersededById: string | null = null, undone = false): RewindCompaction => ({
  id, fromSeq, toSeq, childIds, supersededById, undone,
});

describe("planRewind", () => {
  // a b c (level 1) merged into m (level 2); d is an active level 1 after it.
  const tree = [node("a", 1, 10, [], "m"), node("b", 11, 20, [], "m"), node("c", 21, 30, [], "m"), node("m", 1, 30, ["a", "b", "c"]), node("d", 31, 40)];

  it("undoes what reaches the removed messages and brings back the children that do not", () => {
    expect(planRewind(tree, 25)).toEqual({ undo: ["c", "m", "d"], reactivate: ["a", "b"] });
  });

  it("a rewind after every compaction changes nothing; one before all undoes all", () => {
    expect(planRewind(tree, 41)).toEqual({ undo: [], reactivate: [] });
    expect(planRewind(tree, 35)).toEqual({ undo: ["d"], reactivate: [] });
    expect(planRewind(tree, 1)).toEqual({ undo: ["a", "b", "c", "m", "d"], reactivate: [] });
  });

  it("recurses: only the branch that reaches the rewind point is opened up", () => {
    const deep = [
      node("a", 1, 10, [], "m"), node("b", 11, 20, [], "m"), node("m", 1, 20, ["a", "b"], "top"),
      node("c", 21, 30, [], "n"), node("e", 31, 40, [], "n"), node("n", 21, 40, ["c", "e"], "top"),
      node("top", 1, 40, ["m", "n"]),
    ];
    expect(planRewind(deep, 35)).toEqual({ undo: ["e", "n", "top"], reactivate: ["m", "c"] });
  });

  it("ignores compactions that are already undone", () => {
    const withUndone = [...tree, node("old", 1, 50, ["d"], null, true)];
    expect(planRewind(withUndone, 35)).toEqual({ undo: ["d"], reactivate: [] });
  });
});
