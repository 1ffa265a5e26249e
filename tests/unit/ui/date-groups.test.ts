// The sidebar's date groups, counted in the local time zone: dates are built with the
// local constructor, so the test reads the same in any zone.
import { describe, expect, it } from "vitest";
import { dateGroupLabel, groupByDate } from "../../../components/sidebar/date-groups";

const now = new Date(2026, 10, 27, 0, 30); // just after local midnight: an hour ago was yesterday
const at = (month: number, day: number, hour = 12, year = 2026) => new Date(year, month, day, hour);

describe("date groups", () => {
  it("labels by local calendar day, then by month", () => {
    expect(dateGroupLabel(at(10, 27, 0), now, "en-US")).toBe("Today");
    expect(dateGroupLabel(at(10, 26, 23), now, "en-US")).toBe("Yesterday");
    expect(dateGroupLabel(at(10, 25), now, "en-US")).toBe("Previous 7 days");
    expect(dateGroupLabel(at(10, 20), now, "en-US")).toBe("Previous 7 days");
    expect(dateGroupLabel(at(10, 19), now, "en-US")).toBe("Previous 30 days");
    expect(dateGroupLabel(at(9, 28), now, "en-US")).toBe("Previous 30 days");
    expect(dateGroupLabel(at(9, 27), now, "en-US")).toBe("October");
    expect(dateGroupLabel(at(11, 3, 12, 2025), now, "en-US")).toBe("December 2025");
    // A clock a little ahead of the server's is still today.
    expect(dateGroupLabel(at(10, 27, 1), now, "en-US")).toBe("Today");
  });

  it("groups a newest-first list into runs, one header each", () => {
    const items = [at(10, 27, 0), at(10, 26), at(10, 26, 1), at(10, 22), at(9, 1), at(8, 30)].map((date, index) => ({ id: index, updatedAt: date.toISOString() }));
    expect(groupByDate(items, now, "en-US").map((group) => [group.label, group.items.map((item) => item.id)])).toEqual([
      ["Today", [0]],
      ["Yesterday", [1, 2]],
      ["Previous 7 days", [3]],
      ["October", [4]],
      ["September", [5]],
    ]);
  });
});
