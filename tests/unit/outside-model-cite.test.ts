// The outside model's cites (its own rule, README.md): a sentence from a labelled message
// ends in that message's number; `wild` adds numbers that are nowhere in the material.
import { afterEach, describe, expect, it } from "vitest";
import { summarize } from "../support/outside-model/behaviour";
import { startOutsideModel, type OutsideModel } from "../support/outside-model/server";

const MATERIAL = [
  "[user #3]: We deploy to Frankfurt. The key is in slot 7413.",
  "It rotates on Mondays at 9.",
  "",
  "[assistant #4]: Noted the Frankfurt plan.",
  "Earlier: the budget is 40 euros (#1).",
].join("\n");

describe("outside model cites", () => {
  let model: OutsideModel | undefined;
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  it("exact: the label's number before the closing punctuation, through the message's following lines; other sentences as they were", () => {
    expect(summarize(MATERIAL, "extractive", undefined, false, undefined, { cite: "exact" }).text).toBe(
      [
        "Summary: We deploy to Frankfurt (#3).",
        "The key is in slot 7413 (#3).",
        "It rotates on Mondays at 9 (#3).",
        "Noted the Frankfurt plan (#4).",
        "Earlier: the budget is 40 euros (#1).",
      ].join("\n"),
    );
    // Off by default; a cite's digits do not make a sentence a fact.
    expect(summarize(MATERIAL, "extractive", undefined, false).text).not.toContain("(#3)");
    expect(summarize(MATERIAL, "drop_facts", undefined, false, undefined, { cite: "exact" }).text).toBe(
      "Summary: We deploy to Frankfurt (#3).\nNoted the Frankfurt plan (#4).",
    );
  });

  it("wild: every sentence also names a number past the highest label", () => {
    const text = summarize(MATERIAL, "extractive", undefined, false, undefined, { cite: "wild" }).text;
    const lines = text.replace(/^Summary: /, "").split("\n");
    expect(lines).toHaveLength(5);
    for (const line of lines) expect([...line.matchAll(/#(\d+)/g)].some((match) => Number(match[1]) > 4)).toBe(true);
  });

  it("is configured over HTTP like every other option", async () => {
    model = await startOutsideModel({ cite: true });
    const response = await fetch(`${model.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "system", content: "Summarize." }, { role: "user", content: MATERIAL }] }),
    });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]!.message.content).toContain("We deploy to Frankfurt (#3).");
    model.configure({ citeMode: "wild" });
    const wild = await fetch(`${model.url.replace(/\/v1$/, "")}/admin/config`, { method: "POST", body: JSON.stringify({ citeMode: "nonsense" }) });
    expect(wild.status).toBe(400);
  });
});
