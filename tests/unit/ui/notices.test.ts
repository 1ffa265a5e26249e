// Notices above the composer: one about a message that was refused and is still in the
// box goes once a later message is stored; the others stay until dismissed.
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
});
