import { describe, expect, it } from "vitest";
import { dataAttributes } from "@/components/ui/data-attributes";

describe("dataAttributes", () => {
  it("prefixes every key with data-, keeps false and 0, leaves undefined out", () => {
    expect(dataAttributes({ id: "c1", level: 0, expanded: false, pinned: undefined })).toStrictEqual({
      "data-id": "c1",
      "data-level": 0,
      "data-expanded": false,
    });
  });
});
