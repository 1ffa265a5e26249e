"use client";
// The admin's tool servers: add, edit, remove, enable, and see whether each is up (with
// the reason when it is not) and which tools it offers. Secret values (environment,
// headers) are never shown: a line with only a name keeps the stored value.
import { useState } from "react";
import { createToolServerAction, deleteToolServerAction, listToolServersAction, updateToolServerAction } from "@/app/actions";
import type { McpServerView } from "@/lib/chat/mcp-ops";
import { Button } from "../ui/Button";

type Draft = { name: string; kind: "stdio" | "http"; command: string; args: string; url: string; secrets: string; enabled: boolean; onByDefault: boolean };

const EMPTY: Draft = { name: "", kind: "stdio", command: "", args: "", url: "", secrets: "", enabled: true, onByDefault: false };

function draftOf(server: McpServerView): Draft {
  const t = server.transport;
  return {
    name: server.name,
    kind: t?.kind ?? "stdio",
    command: t?.kind === "stdio" ? t.command : "",
    args: t?.kind === "stdio" ? t.args.join("\n") : "",
    url: t?.kind === "http" ? t.url : "",
    secrets: (t?.kind === "stdio" ? t.envNames : t?.kind === "http" ? t.headerNames : []).join("\n"),
    enabled: server.enabled,
    onByDefault: server.onByDefault,
  };
}

/** "NAME=value" sets a value, "NAME" alone keeps the stored one. */
function secretsOf(text: string): { name: string; value?: string }[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf("=");
      return at < 0 ? { name: line } : { name: line.slice(0, at).trim(), value: line.slice(at + 1) };
    });
}

function inputOf(draft: Draft) {
  const secrets = secretsOf(draft.secrets);
  const transport =
    draft.kind === "stdio"
      ? { kind: "stdio" as const, command: draft.command, args: draft.args.split("\n").map((arg) => arg.trim()).filter(Boolean), env: secrets }
      : { kind: "http" as const, url: draft.url, headers: secrets };
  return { name: draft.name, transport, enabled: draft.enabled, onByDefault: draft.onByDefault };
}

const field = "w-full rounded-md border border-neutral-300 bg-white px-2 py-1 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-900";

function ServerForm({ initial, submitLabel, onSubmit, onCancel }: { initial: Draft; submitLabel: string; onSubmit: (draft: Draft) => Promise<string | null>; onCancel?: () => void }) {
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  return (
    <form
      data-testid="tool-server-form"
      className="grid gap-2 text-[12.5px]"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        const problem = await onSubmit(draft);
        setBusy(false);
        setError(problem);
        if (!problem && !onCancel) setDraft(EMPTY);
      }}
    >
      <div className="flex gap-2">
        <label className="flex-1">
          Name
          <input className={field} value={draft.name} onChange={(e) => set({ name: e.target.value })} data-testid="tool-server-name" required />
        </label>
        <label>
          Connection
          <select className={field} value={draft.kind} onChange={(e) => set({ kind: e.target.value === "http" ? "http" : "stdio" })} data-testid="tool-server-kind">
            <option value="stdio">Command (stdio)</option>
            <option value="http">URL (Streamable HTTP)</option>
          </select>
        </label>
      </div>
      {draft.kind === "stdio" ? (
        <>
          <label>
            Command <span className="text-neutral-500">(runs on this server; &quot;node&quot; is Strata&apos;s own Node.js)</span>
            <input className={`${field} font-mono`} value={draft.command} onChange={(e) => set({ command: e.target.value })} data-testid="tool-server-command" />
          </label>
          <label>
            Arguments <span className="text-neutral-500">(one per line)</span>
            <textarea className={`${field} font-mono`} rows={2} value={draft.args} onChange={(e) => set({ args: e.target.value })} data-testid="tool-server-args" />
          </label>
        </>
      ) : (
        <label>
          URL
          <input className={`${field} font-mono`} value={draft.url} onChange={(e) => set({ url: e.target.value })} data-testid="tool-server-url" />
        </label>
      )}
      <label>
        {draft.kind === "stdio" ? "Environment" : "Headers"}{" "}
        <span className="text-neutral-500">(NAME=value per line; a name alone keeps its stored value, which is never shown)</span>
        <textarea className={`${field} font-mono`} rows={2} value={draft.secrets} onChange={(e) => set({ secrets: e.target.value })} data-testid="tool-server-secrets" />
      </label>
      <div className="flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-1.5">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
        </label>
        <label className="flex items-center gap-1.5">
          <input type="checkbox" checked={draft.onByDefault} onChange={(e) => set({ onByDefault: e.target.checked })} /> On in conversations by default
        </label>
        <span className="flex-1" />
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button variant="primary" type="submit" disabled={busy} data-testid="tool-server-save">
          {submitLabel}
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** What the server runs or where it is, on one line. */
function transportLine(server: McpServerView): string | undefined {
  return server.transport?.kind === "stdio" ? [server.transport.command, ...server.transport.args].join(" ") : server.transport?.url;
}

function Status({ server }: { server: McpServerView }) {
  const { status } = server;
  if (!server.enabled) return <span className="text-neutral-500">disabled</span>;
  if (status.state === "down") return <span className="text-red-700 dark:text-red-400" data-testid="tool-server-status">down: {status.reason}</span>;
  if (status.state === "up") return <span className="text-green-700 dark:text-green-400" data-testid="tool-server-status">up, {status.tools.length} tools</span>;
  return <span className="text-neutral-500" data-testid="tool-server-status">not connected yet</span>;
}

export function ToolServersAdmin({ initialServers }: { initialServers: McpServerView[] }) {
  const [servers, setServers] = useState(initialServers);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function refresh(connect: boolean) {
    const result = await listToolServersAction(connect);
    if (result.ok) setServers(result.data);
    else setError(result.error.message);
  }

  return (
    <section className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800" data-testid="tool-servers-admin">
      <div className="flex items-center gap-2">
        <h2 className="flex-1 text-[13px] font-medium">Tool servers (Model Context Protocol)</h2>
        <Button size="xs" onClick={() => void refresh(true)} data-testid="tool-servers-check">
          Check all
        </Button>
      </div>
      <p className="mt-1 text-[12px] text-neutral-500">Each conversation&apos;s owner switches them on or off for it (the Tools menu in the chat header).</p>
      <ul className="mt-3 grid grid-cols-1 gap-3">
        {servers.map((server) => (
          <li key={server.id} className="rounded-md border border-neutral-200 p-3 text-[12.5px] dark:border-neutral-800" data-testid={`tool-server-${server.name}`}>
            {editing === server.id ? (
              <ServerForm
                initial={draftOf(server)}
                submitLabel="Save"
                onCancel={() => setEditing(null)}
                onSubmit={async (draft) => {
                  const result = await updateToolServerAction({ id: server.id, ...inputOf(draft) });
                  if (!result.ok) return result.error.message;
                  setEditing(null);
                  await refresh(false);
                  return null;
                }}
              />
            ) : (
              <>
                <div className="flex items-center gap-2">
                  <span className="shrink-0 font-mono font-medium">{server.name}</span>
                  {/* A long command path is cut with an ellipsis (whole in its title), never wider than the row: the buttons stay on screen. */}
                  <span className="min-w-0 flex-1 truncate font-mono text-[11.5px] text-neutral-500" title={transportLine(server)}>
                    {transportLine(server)}
                  </span>
                  <Button size="xs" variant="ghost" onClick={() => setEditing(server.id)}>
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    variant="ghost"
                    onClick={async () => {
                      if (!window.confirm(`Remove the tool server "${server.name}"?`)) return;
                      const result = await deleteToolServerAction(server.id);
                      if (result.ok) setServers((list) => list.filter((s) => s.id !== server.id));
                      else setError(result.error.message);
                    }}
                  >
                    Remove
                  </Button>
                </div>
                <div className="mt-1">
                  <Status server={server} />
                  {server.transport && (server.transport.kind === "stdio" ? server.transport.envNames : server.transport.headerNames).length > 0 ? (
                    <span className="ml-2 text-neutral-500">
                      {(server.transport.kind === "stdio" ? server.transport.envNames : server.transport.headerNames).map((name) => `${name}: set`).join(", ")}
                    </span>
                  ) : null}
                </div>
                {server.status.state === "up" ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-neutral-600 dark:text-neutral-400">Tools</summary>
                    <ul className="mt-1 grid gap-0.5">
                      {server.status.tools.map((tool) => (
                        <li key={tool.name}>
                          <span className="font-mono">{tool.name}</span>
                          {tool.readOnly ? <span className="ml-1 text-neutral-500">(read-only)</span> : null}
                          <span className="ml-2 text-neutral-500">{tool.description.slice(0, 140)}</span>
                        </li>
                      ))}
                      {server.status.skipped.map((tool) => (
                        <li key={`skipped-${tool.name}`} className="text-amber-700 dark:text-amber-400">
                          <span className="font-mono">{tool.name}</span> skipped: {tool.reason}
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </>
            )}
          </li>
        ))}
      </ul>
      <details className="mt-3">
        <summary className="cursor-pointer text-[12.5px] font-medium" data-testid="tool-server-add">
          Add a tool server
        </summary>
        <div className="mt-2">
          <ServerForm
            initial={EMPTY}
            submitLabel="Add"
            onSubmit={async (draft) => {
              const result = await createToolServerAction(inputOf(draft));
              if (!result.ok) return result.error.message;
              await refresh(false);
              return null;
            }}
          />
        </div>
      </details>
      {error ? (
        <p role="alert" className="mt-2 text-[12px] text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </section>
  );
}
