// The owner's GET reads: the URL the browser builds from a read's entry is parsed by the
// route back into the same query (lib/http/owner-reads.ts is shared by both sides).
import { describe, expect, it } from "vitest";
import { ownerReads, queryOf, readUrl } from "@/lib/http/owner-reads";

const ID = "0190a000-0000-7000-8000-000000000000";

describe("owner reads", () => {
  it("a query survives the trip browser → URL → route", () => {
    const cases = [
      ["timeline", { beforeSeq: 401, limit: 200 }],
      ["children", { afterSeq: 0, limit: 50 }],
      ["treePath", { seq: 7 }],
      ["conversationPage", { archived: true, after: "2026-01-01T00:00:00.000Z|abc", limit: 100 }],
      ["conversationPage", { archived: false, limit: 5 }],
    ] as const;
    for (const [read, query] of cases) {
      const url = `http://localhost${readUrl(read, ID, query)}`;
      expect(ownerReads[read].query.parse(queryOf(url)), url).toEqual(query);
    }
  });

  it("leaves out what is not given, and names the resource in the path", () => {
    expect(readUrl("timeline", ID, { limit: 10 })).toBe(`/api/conversations/${ID}/messages?limit=10`);
    expect(readUrl("coveredPinned", ID)).toBe(`/api/conversations/${ID}/pinned/covered`);
    expect(readUrl("children", "a/b")).toBe("/api/compactions/a%2Fb/children");
  });

  it("text where a number belongs reaches the operation as NaN, which its schema refuses", () => {
    expect(ownerReads.treePath.query.parse(queryOf("http://localhost/x?seq=first")).seq).toBeNaN();
    expect(ownerReads.conversationPage.query.safeParse(queryOf("http://localhost/x?archived=maybe")).success).toBe(false);
  });

  it("the answers are checked: a meter without its context and a cost of the wrong shape are refused", () => {
    expect(ownerReads.meter.answer.safeParse({ contexts: {} }).success).toBe(false);
    expect(ownerReads.cost.answer.safeParse({ cost: { total: "free" } }).success).toBe(false);
    expect(ownerReads.coveredPinned.answer.safeParse({}).success).toBe(false);
    // What GET /api/conversations answers is not a page: a read sent there by mistake is refused, not shown as an empty list.
    expect(ownerReads.conversationPage.answer.safeParse({ conversations: [] }).success).toBe(false);
    expect(ownerReads.conversationPage.answer.safeParse({ pinned: [], items: [], next: null }).success).toBe(true);
  });
});
