// Tool definitions held to a share of the model's window: tool servers in the order they
// are listed, each while it still fits beside the ones taken; none at all when Strata's
// own tools alone do not fit. The cost is the larger of OpenAI's rendering and the JSON a
// chat template sends, so a server that reads JSON is not given more than it can hold.
import { describe, expect, it } from "vitest";
import { fitToWindow, leftOutNotice, MAX_TOOLS_SHARE } from "../../../lib/chat/tools/window-share";
import { countToolsTokens } from "../../../lib/llm/tokens";
import type { ChatTool } from "../../../lib/llm/client";

const WORDS = ["read", "the", "file", "at", "path", "and", "return", "its", "text", "lines"];

function tool(name: string, words: number, server?: string): { definition: ChatTool; server?: string } {
  const description = Array.from({ length: words }, (_, index) => WORDS[index % WORDS.length]).join(" ");
  const definition: ChatTool = {
    type: "function",
    function: { name, description, parameters: { type: "object", properties: { path: { type: "string", description: "A path." } }, required: ["path"] } },
  };
  return server === undefined ? { definition } : { definition, server };
}

const jsonTokens = (tools: { definition: ChatTool }[]) => Math.ceil(JSON.stringify(tools.map((t) => t.definition)).length / 4);
const names = (tools: readonly { definition: ChatTool }[]) => tools.map((t) => t.definition.function.name);

const own = [tool("current_time", 10), tool("compress_context", 20)];

describe("tools within their share of the window", () => {
  it("offers everything when it fits", () => {
    const tools = [...own, tool("files__read", 40, "files"), tool("notes__add", 40, "notes")];
    const fitted = fitToWindow(tools, "m", 128_000);
    expect(fitted.leftOut).toBeNull();
    expect(names(fitted.tools)).toEqual(names(tools));
  });

  it("takes the servers in the order listed, each while it fits: a large one is left out, a later small one offered", () => {
    const large = [tool("files__read", 900, "files"), tool("files__write", 900, "files")];
    const small = [tool("notes__add", 20, "notes")];
    const window = 3 * (jsonTokens([...own, ...small]) + 50);
    const fitted = fitToWindow([...own, ...large, ...small], "local-llama", window);
    expect(names(fitted.tools)).toEqual(["current_time", "compress_context", "notes__add"]);
    expect(fitted.leftOut).toMatchObject({ servers: ["files"], allTools: false, model: "local-llama", contextWindow: window, limit: Math.floor(window * MAX_TOOLS_SHARE) });
    expect(fitted.leftOut!.tokens).toBeGreaterThan(fitted.leftOut!.limit);
  });

  it("counts the definitions as JSON when that is more than OpenAI's rendering", () => {
    const server = [tool("files__read", 30, "files")];
    const all = [...own, ...server];
    const json = jsonTokens(all);
    const window = 3 * (json - 1);
    // The premise: by OpenAI's rendering alone they would fit.
    expect(countToolsTokens(all.map((t) => t.definition))).toBeLessThanOrEqual(Math.floor(window * MAX_TOOLS_SHARE));
    expect(fitToWindow(all, "m", window).leftOut?.servers).toEqual(["files"]);
    expect(fitToWindow(all, "m", 3 * json).leftOut).toBeNull();
  });

  it("offers no tool when Strata's own alone do not fit, and says so", () => {
    const tools = [...own, tool("notes__add", 5, "notes")];
    const fitted = fitToWindow(tools, "tiny", 3 * (jsonTokens(own) - 1));
    expect(fitted.tools).toEqual([]);
    expect(fitted.leftOut).toMatchObject({ allTools: true, servers: ["notes"] });
    expect(leftOutNotice(fitted.leftOut!)).toMatch(/^No tools were offered for this reply: their definitions would take about [\d,]+ tokens, more than a third of the [\d,]+-token context window of tiny/);
  });

  it("names the servers left out in the notice", () => {
    const notice = leftOutNotice({ servers: ["filesystem", "memory"], allTools: false, tokens: 3514, limit: 682, model: "llama3", contextWindow: 2048 });
    expect(notice).toContain('The tools of tool servers "filesystem" and "memory" were not offered for this reply');
    expect(notice).toContain("about 3,514 tokens, more than a third of the 2,048-token context window of llama3");
    expect(leftOutNotice({ servers: ["memory"], allTools: false, tokens: 3514, limit: 2730, model: "m", contextWindow: 8192 })).toContain('The tools of tool server "memory" were not offered');
  });
});
