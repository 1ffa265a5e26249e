#!/usr/bin/env node
// A real MCP server over stdio (the SDK's low-level Server) that misbehaves on request,
// for the fault tests of Strata's MCP client: it lists one tool whose definition is
// invalid, and has tools that hang, crash the process, answer with a huge text or with
// content that is not MCP content. It prints its environment to stderr when it starts,
// so that a test can check no secret is repeated. Imports nothing from Strata.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const object = (properties = {}) => ({ type: "object", properties });
// Every tool claims to be read-only, so that calls run without waiting for a user's approval.
const readOnly = { readOnlyHint: true };

const tools = [
  { name: "ok", description: "Answers 'fine'.", inputSchema: object(), annotations: readOnly },
  { name: "hang", description: "Never answers.", inputSchema: object(), annotations: readOnly },
  { name: "crash", description: "Exits the server process mid-call.", inputSchema: object(), annotations: readOnly },
  { name: "big", description: "Answers with `mb` megabytes of text.", inputSchema: object({ mb: { type: "number" } }), annotations: readOnly },
  { name: "malformed", description: "Answers with content that is not MCP content.", inputSchema: object(), annotations: readOnly },
  { name: "image", description: "Answers with an image and a resource link.", inputSchema: object(), annotations: readOnly },
  // Invalid: an input schema must be an object schema.
  { name: "broken", description: "Listed with an invalid input schema.", inputSchema: { type: "string" } },
];

if (process.env.FAULT_SERVER_FAIL_START === "1") {
  console.error(`refusing to start; token ${process.env.FAULT_SERVER_TOKEN ?? ""}`);
  process.exit(3);
}
console.error(`fault server starting with token ${process.env.FAULT_SERVER_TOKEN ?? "(none)"}`);

const server = new Server({ name: "fault-server", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case "ok":
      return { content: [{ type: "text", text: "fine" }] };
    case "hang":
      return new Promise(() => {});
    case "crash":
      setTimeout(() => process.exit(1), 50);
      return new Promise(() => {});
    case "big": {
      const mb = Number(request.params.arguments?.mb ?? 10);
      const line = "0123456789abcdef".repeat(4) + "\n";
      return { content: [{ type: "text", text: line.repeat(Math.ceil((mb * 1024 * 1024) / line.length)) }] };
    }
    case "malformed":
      return { content: "not a list" };
    case "image":
      return {
        content: [
          { type: "image", data: Buffer.alloc(3000, 7).toString("base64"), mimeType: "image/png" },
          { type: "resource_link", name: "report", uri: "file:///tmp/report.txt", mimeType: "text/plain" },
        ],
      };
    default:
      return { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
