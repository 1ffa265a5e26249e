import { describe, expect, it } from "vitest";
import { PREVIEW_CHARS, summaryPreview } from "../../../components/timeline/summary-preview";

const noSections = null;

describe("summaryPreview", () => {
  it("shows the first line with text, as plain text", () => {
    expect(summaryPreview("## Summary\n- FACT city=Lisbon\n- FACT k=v", noSections)).toEqual({ text: "Summary", partial: true });
    expect(summaryPreview("\n\n**User** wants a trip plan.\nMore.", noSections)).toEqual({ text: "User wants a trip plan.", partial: true });
  });

  it("clips a long line at a word, and says the preview is partial", () => {
    const long = `${"word ".repeat(60)}end`;
    const preview = summaryPreview(long, noSections);
    expect(preview.partial).toBe(true);
    expect(preview.text.length).toBeLessThanOrEqual(PREVIEW_CHARS + 1);
    expect(preview.text).toMatch(/word…$/);
  });

  it("is the whole summary when that is one short line", () => {
    expect(summaryPreview("Short summary.", noSections)).toEqual({ text: "Short summary.", partial: false });
  });

  it("runs structured sections together", () => {
    const sections = { goals: ["Plan a trip"], decisions: [], completed: [], openItems: ["Book hotel", "Rent car"], facts: [] };
    expect(summaryPreview("", sections)).toEqual({ text: "Goals: Plan a trip · Open items: Book hotel; Rent car", partial: false });
    const many = { ...sections, facts: Array.from({ length: 20 }, (_, index) => `FACT k${index}=v${index}`) };
    expect(summaryPreview("", many).partial).toBe(true);
  });
});
