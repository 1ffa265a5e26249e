import { describe, expect, it } from "vitest";
import { snippetParts } from "@/lib/db/search";
import { plainSnippetText } from "@/lib/db/snippet-text";

const HIT = (word: string) => `\u0001${word}\u0002`;

describe("search snippets read as plain text", () => {
  it("drops Markdown's marks: headings, quotes, bold, strike-through, code ticks and fences, link targets", () => {
    expect(plainSnippetText("## Deploy plan\nUse **blue-green** with `kubectl rollout` and ~~canary~~")).toBe("Deploy plan Use blue-green with kubectl rollout and canary");
    expect(plainSnippetText("> quoted line\n```ts\nconst x = 1;\n```")).toBe("quoted line ts const x = 1; ");
    expect(plainSnippetText("see [the runbook](https://example.com/runbook) and ![diagram](d.png)")).toBe("see the runbook and diagram");
  });

  it("keeps what is text: identifiers with underscores, single asterisks, a # inside a line, numbers", () => {
    expect(plainSnippetText("set max_retries = 3 * 2 for issue #42")).toBe("set max_retries = 3 * 2 for issue #42");
  });

  it("marks around a hit disappear on both sides of it, and the hit stays a hit", () => {
    const parts = snippetParts(`Use **${HIT("postgres")}** on \`${HIT("port")}\` 5432`);
    expect(parts).toEqual([
      { text: "Use ", hit: false },
      { text: "postgres", hit: true },
      { text: " on ", hit: false },
      { text: "port", hit: true },
      { text: " 5432", hit: false },
    ]);
  });
});
