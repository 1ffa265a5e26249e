// The Activity panel's top line for background compaction not finished yet.
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { BackgroundWork } from "../../../components/chat/BackgroundWork";
import type { BackgroundWorkView } from "../../../lib/views";

const render = (work: BackgroundWorkView[]) => renderToStaticMarkup(createElement(BackgroundWork, { work }));
const text = (html: string) => html.replace(/<[^>]+>/g, "");
const at = (iso: string) => new Date(iso).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" });
const today = (h: number, m: number) => {
  const d = new Date();
  d.setHours(h, m, 0, 0);
  return d.toISOString();
};

describe("BackgroundWork", () => {
  it("renders nothing when no work is pending", () => {
    expect(render([])).toBe("");
  });

  it("shows a queued and a running job with their times", () => {
    const html = render([
      { state: "running", where: "queue", since: today(9, 5), attempt: 1, maxAttempts: 5, nextRetryAt: null },
      { state: "queued", where: "queue", since: today(9, 7), attempt: 1, maxAttempts: 5, nextRetryAt: null },
    ]);
    expect(html).toContain('data-state="running"');
    expect(text(html)).toContain(`Background compaction running since ${at(today(9, 5))}`);
    expect(text(html)).toContain(`Background compaction queued since ${at(today(9, 7))}`);
    expect(text(html)).not.toContain("attempt");
  });

  it("shows a retry with its attempt count and when it is due", () => {
    const html = render([{ state: "retrying", where: "queue", since: today(9, 0), attempt: 3, maxAttempts: 5, nextRetryAt: today(9, 12) }]);
    expect(text(html)).toContain(`Background compaction failed; retry 3 of 5 at ${at(today(9, 12))}`);
  });

  it("marks work running in this server's process", () => {
    const html = render([{ state: "running", where: "in-process", since: today(10, 0), attempt: 1, maxAttempts: 1, nextRetryAt: null }]);
    expect(text(html)).toContain("this server");
  });
});
