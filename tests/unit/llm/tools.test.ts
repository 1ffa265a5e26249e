import { describe, expect, it } from "vitest";
import { builtinTools, currentTimeTool, getTool, runTool } from "@/lib/llm/tools";

describe("built-in tools", () => {
  it("defines current_time as an OpenAI function tool", () => {
    const definitions = builtinTools.map((tool) => tool.definition);
    expect(definitions.map((d) => d.function.name)).toContain("current_time");
    expect(currentTimeTool.definition.type).toBe("function");
    expect(builtinTools).toContain(currentTimeTool);
    expect(getTool("current_time")).toBe(currentTimeTool);
    expect(getTool("toString")).toBeUndefined();
  });

  it("current_time returns the ISO time and the server's time zone", async () => {
    const now = new Date("2025-03-04T05:06:07.000Z");
    const result = await runTool({ id: "c1", name: "current_time", arguments: "{}" }, { now });
    expect(result.ok).toBe(true);
    const parsed = JSON.parse(result.content) as { iso: string; timeZone: string; local: string };
    expect(parsed.iso).toBe("2025-03-04T05:06:07.000Z");
    expect(parsed.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(parsed.local).toMatch(/2025/);
  });

  it("turns unknown tools and bad arguments into readable errors", async () => {
    expect(await runTool({ id: "c1", name: "rm_rf", arguments: "{}" })).toEqual({
      ok: false,
      content: 'Error: unknown tool "rm_rf".',
    });
    const bad = await runTool({ id: "c2", name: "current_time", arguments: "{not json" });
    expect(bad.ok).toBe(false);
    expect(bad.content).toMatch(/not valid JSON/);
    expect((await runTool({ id: "c3", name: "current_time", arguments: "" })).ok).toBe(true);
  });
});
