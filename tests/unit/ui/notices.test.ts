// Notices above the composer: one about a message that was refused and is still in the
// box goes once a later message is stored; the others stay until dismissed. One that
// every turn repeats (tools left out for lack of room) is shown once, and not again once
// dismissed, until another conversation opens.
import { beforeEach, describe, expect, it } from "vitest";
import { notify, useNotices } from "../../../components/stores/notices-store";

describe("notices", () => {
  beforeEach(() => useNotices.getState().clear());

  it("those about an unsent message go together when one is sent; the rest stay", () => {
    notify("error", "You can send at most 30 messages a minute. Your message was not sent; it is still in the box.", "unsent");
    notify("warning", "Compression failed: the summarizer timed out.");
    notify("error", "The server could not be reached. Your message was not sent; it is still in the box.", "unsent");
    useNotices.getState().dismissAbout("unsent");
    expect(useNotices.getState().notices.map((notice) => notice.text)).toEqual(["Compression failed: the summarizer timed out."]);
  });

  it("a newer refusal of the message in the box replaces the older ones (their countdowns are stale)", () => {
    notify("error", "You can send at most 30 messages a minute. Try again in 41 s. Your message was not sent; it is still in the box.", "unsent");
    notify("warning", "Compression failed: the summarizer timed out.");
    notify("error", "You can send at most 30 messages a minute. Try again in 38 s. Your message was not sent; it is still in the box.", "unsent");
    expect(useNotices.getState().notices.map((notice) => notice.text)).toEqual([
      "Compression failed: the summarizer timed out.",
      "You can send at most 30 messages a minute. Try again in 38 s. Your message was not sent; it is still in the box.",
    ]);
  });

  it("a repeated notice is on screen once; dismissed, it does not come back until another conversation opens", () => {
    const repeated = "The tools of tool server \"memory\" were not offered for this reply.";
    notify("warning", repeated);
    notify("warning", repeated);
    expect(useNotices.getState().notices.map((notice) => notice.text)).toEqual([repeated]);
    useNotices.getState().dismiss(useNotices.getState().notices[0]!.id);
    notify("warning", repeated);
    notify("warning", "Something else.");
    expect(useNotices.getState().notices.map((notice) => notice.text)).toEqual(["Something else."]);
    useNotices.getState().clear();
    notify("warning", repeated);
    expect(useNotices.getState().notices.map((notice) => notice.text)).toEqual([repeated]);
  });
});
