"use client";
// The conversation's tool servers: which of the admin's servers this conversation uses,
// switched here by its owner (from the next model call on).
import { useEffect, useState } from "react";
import { setConversationToolServerAction } from "@/app/actions";
import { fetchRead } from "../queries/fetch-read";
import type { ConversationMcpServerView } from "@/lib/chat/mcp-ops";
import { usePopover } from "../shell/use-dismiss";
import { WrenchIcon } from "../ui/icons";
import { HeaderLabel, PHONE_MENU_ROW } from "./HeaderLabel";

export function ToolServersMenu({ conversationId }: { conversationId: string }) {
  const { open, ref, toggleProps } = usePopover();
  const [servers, setServers] = useState<ConversationMcpServerView[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    void fetchRead("conversationToolServers", conversationId).then((result) => {
      if (!live) return;
      if (result.ok) setServers(result.data);
      else setError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [open, conversationId]);

  async function toggle(serverId: string, on: boolean) {
    setError(null);
    // Shown switched at once; put back if the server refuses.
    const flip = (value: boolean) => setServers((list) => list?.map((server) => (server.id === serverId ? { ...server, on: value } : server)) ?? null);
    flip(on);
    const result = await setConversationToolServerAction({ conversationId, serverId, on });
    if (result.ok) setServers(result.data);
    else {
      flip(!on);
      setError(result.error.message);
    }
  }

  return (
    <div ref={ref} className="relative">
      <button
        {...toggleProps}
        data-testid="tool-servers-toggle"
        title="Tools for this conversation"
        className={`inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-[12.5px] font-medium text-neutral-600 hover:bg-neutral-100 dark:text-neutral-400 dark:hover:bg-neutral-800 ${PHONE_MENU_ROW}`}
      >
        <WrenchIcon className="size-3.5" /> <HeaderLabel>Tools</HeaderLabel>
      </button>
      {open ? (
        <div
          data-testid="tool-servers-menu"
          className="absolute top-9 right-0 z-40 w-72 rounded-md border border-neutral-200 bg-white p-2 text-[12.5px] shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
        >
          <p className="px-1 pb-1.5 text-[11.5px] text-neutral-500">Tool servers this conversation uses</p>
          {servers === null && !error ? <p className="px-1 text-neutral-500">Loading…</p> : null}
          {servers?.length === 0 ? <p className="px-1 text-neutral-500">No tool servers are set up. The admin adds them on the admin page.</p> : null}
          <ul>
            {servers?.map((server) => (
              <li key={server.id}>
                <label className="flex items-center gap-2 rounded px-1 py-1 hover:bg-neutral-50 dark:hover:bg-neutral-800">
                  <input
                    type="checkbox"
                    checked={server.on}
                    data-testid={`tool-server-switch-${server.name}`}
                    className="size-3.5 accent-neutral-900 dark:accent-neutral-100"
                    onChange={(event) => void toggle(server.id, event.target.checked)}
                  />
                  <span className="flex-1 font-mono">{server.name}</span>
                  {server.status.state === "down" ? (
                    <span className="text-[11px] text-red-700 dark:text-red-400" title={server.status.reason}>
                      down
                    </span>
                  ) : server.status.state === "up" ? (
                    <span className="text-[11px] text-neutral-500">{server.status.tools.length} tools</span>
                  ) : null}
                </label>
              </li>
            ))}
          </ul>
          {error ? (
            <p role="alert" className="px-1 pt-1 text-red-700 dark:text-red-400">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
