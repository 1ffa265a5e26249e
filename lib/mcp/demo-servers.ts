// The tool servers the offline demo starts with: the filesystem server on the sample
// folder shipped in demo/files, and the memory server (its graph kept in demo/memory.jsonl, not committed). Both
// come from the npm registry and need no network. Paths are relative: a stdio server
// runs in the app's working directory (the repository root), so a moved checkout still
// finds them.
import path from "node:path";
import type { McpTransport } from "./config";

export type DemoServer = { name: string; transport: McpTransport; enabled: true; onByDefault: true };

const bin = (pkg: string) => `node_modules/@modelcontextprotocol/${pkg}/dist/index.js`;

export function demoServers(cwd = process.cwd()): DemoServer[] {
  return [
    {
      name: "filesystem",
      transport: { kind: "stdio", command: "node", args: [bin("server-filesystem"), "demo/files"], env: {} },
      enabled: true,
      onByDefault: true,
    },
    {
      name: "memory",
      // The server resolves a relative path against its own package folder, so this one is absolute.
      transport: { kind: "stdio", command: "node", args: [bin("server-memory")], env: { MEMORY_FILE_PATH: path.resolve(cwd, "demo/memory.jsonl") } },
      enabled: true,
      onByDefault: true,
    },
  ];
}
