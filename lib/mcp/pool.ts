// One connection per tool server per process, made when a turn first needs it. A
// connection that fails is retried after a growing pause (so a server that is down costs
// a turn nothing but a status line); one that closes is made again on next use. The
// tool list is kept until the server says it changed. Every child process is closed
// when this process exits.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpTransport } from "./config";
import { checkTools, toolsPageSchema, type McpToolInfo, type SkippedTool } from "./tools";

export type ServerTarget = { id: string; name: string; transport: McpTransport; updatedAt: Date };

export type ServerStatus =
  | { state: "idle" }
  | { state: "up"; tools: McpToolInfo[]; skipped: SkippedTool[] }
  | { state: "down"; reason: string };

export type PoolOptions = {
  /** Longest wait for a server to start and list its tools. */
  connectTimeoutMs: number;
  /** First pause before a failed server is tried again; doubles up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
};

const DEFAULT_OPTIONS: PoolOptions = { connectTimeoutMs: 15_000, backoffMs: 1_000, maxBackoffMs: 60_000 };
const MAX_LIST_PAGES = 20;
const STDERR_TAIL_CHARS = 600;
const STDIO_BUFFER_BYTES = 64 * 1024 * 1024;

/** Raised for a server that cannot be reached; its message is the reason shown. */
export class ServerDownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ServerDownError";
  }
}

// Next bundles server code more than once (pages, actions, routes), each with its own
// copy of these classes, while the pool is one per process: errors are recognized by
// their name and shape, never by instanceof.

export function isServerDown(error: unknown): error is ServerDownError {
  return error instanceof Error && error.name === "ServerDownError";
}

/** A JSON-RPC error the server (or the SDK, for a timeout or a closed connection) answered with. */
export function isProtocolError(error: unknown): error is Error & { code: number } {
  return error instanceof Error && error.name === "McpError" && typeof (error as { code?: unknown }).code === "number";
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/MCP error -?\d+: /g, "").slice(0, 500) || "unknown error";
}

/** The transport's secrets, which a reason quoting the server's output must not repeat. */
function secretsOf(transport: McpTransport): string[] {
  const values = Object.values(transport.kind === "stdio" ? transport.env : transport.headers);
  return values.filter((value) => value.length >= 3);
}

function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join("***"), text);
}

class Connection {
  private client: Client | undefined;
  private transport: StdioClientTransport | StreamableHTTPClientTransport | undefined;
  private connecting: Promise<Client> | undefined;
  private tools: { tools: McpToolInfo[]; skipped: SkippedTool[] } | undefined;
  private listing: Promise<{ tools: McpToolInfo[]; skipped: SkippedTool[] }> | undefined;
  private failures = 0;
  private retryAt = 0;
  private lastError: string | undefined;
  private stderrTail = "";
  private closed = false;

  constructor(
    readonly target: ServerTarget,
    private readonly options: PoolOptions,
  ) {}

  get status(): ServerStatus {
    if (this.lastError && !this.client) return { state: "down", reason: this.lastError };
    if (this.client && this.tools) return { state: "up", ...this.tools };
    return { state: "idle" };
  }

  get pid(): number | null {
    return this.transport instanceof StdioClientTransport ? this.transport.pid : null;
  }

  private makeTransport(): StdioClientTransport | StreamableHTTPClientTransport {
    const { transport } = this.target;
    if (transport.kind === "http") {
      return new StreamableHTTPClientTransport(new URL(transport.url), { requestInit: { headers: transport.headers } });
    }
    const stdio = new StdioClientTransport({
      // "node" is the Node.js running Strata, whatever the PATH says.
      command: transport.command === "node" ? process.execPath : transport.command,
      args: transport.args,
      env: { ...getDefaultEnvironment(), ...transport.env },
      // Kept, not inherited: a server may print its environment; the tail (secrets
      // blanked) is the reason shown when it fails to start.
      stderr: "pipe",
      // Room for a result of several megabytes (which the tool source then cuts to its bound).
      maxBufferSize: STDIO_BUFFER_BYTES,
    });
    stdio.stderr?.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });
    return stdio;
  }

  /** The connected client: connects if needed, unless the server failed recently. */
  async ready(): Promise<Client> {
    if (this.closed) throw new ServerDownError("the connection was closed");
    if (this.client) return this.client;
    if (this.connecting) return this.connecting;
    if (Date.now() < this.retryAt && this.lastError) throw new ServerDownError(this.lastError);
    this.connecting = this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    const client = new Client({ name: "strata", version: "1.0.0" });
    const transport = this.makeTransport();
    this.stderrTail = "";
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.tools = undefined;
    });
    try {
      await withTimeout(client.connect(transport, { timeout: this.options.connectTimeoutMs }), this.options.connectTimeoutMs, "did not answer in time");
    } catch (error) {
      await client.close().catch(() => {});
      const output = this.stderrTail.trim() ? ` (${redact(this.stderrTail.trim(), secretsOf(this.target.transport)).split("\n").slice(-3).join(" | ")})` : "";
      this.fail(`could not connect: ${describe(error)}${output}`);
      throw new ServerDownError(this.lastError!);
    }
    // A close we did not ask for (the process exited, the HTTP session ended): the next use connects again.
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.transport = undefined;
      this.tools = undefined;
      // Shown until the next use, which connects again at once (backing off only if that fails).
      if (!this.closed) this.lastError = "the connection closed";
    };
    this.client = client;
    this.transport = transport;
    this.failures = 0;
    this.retryAt = 0;
    this.lastError = undefined;
    return client;
  }

  private fail(reason: string): void {
    this.failures += 1;
    this.lastError = reason;
    this.retryAt = Date.now() + Math.min(this.options.backoffMs * 2 ** (this.failures - 1), this.options.maxBackoffMs);
  }

  /** The server's tools (listed once, again after it announced a change). */
  async listTools(): Promise<{ tools: McpToolInfo[]; skipped: SkippedTool[] }> {
    const client = await this.ready();
    if (this.tools) return this.tools;
    this.listing ??= (async () => {
      try {
        const listed: unknown[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < MAX_LIST_PAGES; page++) {
          const result = await client.request({ method: "tools/list", ...(cursor ? { params: { cursor } } : {}) }, toolsPageSchema, {
            timeout: this.options.connectTimeoutMs,
          });
          listed.push(...result.tools);
          cursor = result.nextCursor;
          if (!cursor) break;
        }
        this.tools = checkTools(listed);
        return this.tools;
      } catch (error) {
        const reason = `could not list its tools: ${describe(error)}`;
        // A server that cannot list its tools is no use: drop the connection, try again later.
        await this.drop();
        this.fail(reason);
        throw new ServerDownError(reason);
      } finally {
        this.listing = undefined;
      }
    })();
    return this.listing;
  }

  async callTool(name: string, args: Record<string, unknown>, options: { timeoutMs: number; signal: AbortSignal }): Promise<CallToolResult> {
    const client = await this.ready();
    try {
      return (await client.callTool({ name, arguments: args }, CallToolResultSchema, {
        timeout: options.timeoutMs,
        signal: options.signal,
      })) as CallToolResult;
    } catch (error) {
      // Not an answer but a broken connection (an HTTP server restarted and forgot the
      // session, a network error): the next use connects afresh.
      if (!isProtocolError(error) && !options.signal.aborted && this.client === client) {
        await this.drop();
        this.lastError = `the connection failed: ${describe(error)}`;
      }
      throw error;
    }
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    this.tools = undefined;
    await client?.close().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The version of a server's settings a connection was made with: an edit makes a new connection. */
const versionOf = (target: ServerTarget) => `${target.updatedAt.getTime()}\n${JSON.stringify(target.transport)}`;

export class McpPool {
  private readonly connections = new Map<string, { version: string; connection: Connection }>();
  private readonly options: PoolOptions;

  constructor(options: Partial<PoolOptions> = {}) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  connection(target: ServerTarget): Connection {
    const version = versionOf(target);
    const existing = this.connections.get(target.id);
    if (existing?.version === version) return existing.connection;
    if (existing) void existing.connection.close();
    const connection = new Connection(target, this.options);
    this.connections.set(target.id, { version, connection });
    return connection;
  }

  /** What is known about a server without connecting to it. */
  status(target: ServerTarget): ServerStatus {
    const existing = this.connections.get(target.id);
    return existing?.version === versionOf(target) ? existing.connection.status : { state: "idle" };
  }

  /** Forgets a removed server (its process is closed). */
  async forget(serverId: string): Promise<void> {
    const existing = this.connections.get(serverId);
    this.connections.delete(serverId);
    await existing?.connection.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(all.map(({ connection }) => connection.close()));
  }

  /** Synchronous last resort on exit: the child processes are ended, nothing waited for. */
  killAll(): void {
    for (const { connection } of this.connections.values()) {
      const pid = connection.pid;
      if (pid) {
        try {
          process.kill(pid);
        } catch {
          // Already gone.
        }
      }
    }
  }
}

export type { Connection as McpConnection };

// One pool per process, kept on globalThis because Next dev re-evaluates modules.
const holder = globalThis as unknown as { strataMcpPool?: McpPool };

export function mcpPool(): McpPool {
  if (!holder.strataMcpPool) {
    const pool = new McpPool();
    holder.strataMcpPool = pool;
    process.once("exit", () => pool.killAll());
  }
  return holder.strataMcpPool;
}

export async function closeMcpPool(): Promise<void> {
  await holder.strataMcpPool?.closeAll();
}
