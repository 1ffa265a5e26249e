"use client";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useConversationList } from "@/components/stores/conversation-list-store";

/** Imports a JSON export as a new conversation (through the API: exports exceed an action's body limit). */
export function ImportButton() {
  const router = useRouter();
  const refresh = useConversationList((state) => state.refresh);
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  async function importFile(file: File) {
    setState({ busy: true, error: null });
    const response = await fetch("/api/conversations/import", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await file.text(),
    }).catch(() => null);
    const body = (await response?.json().catch(() => null)) as { conversation?: { id: string }; error?: { message: string } } | null;
    if (!response?.ok || !body?.conversation) {
      setState({ busy: false, error: body?.error?.message ?? "The import failed: the server could not be reached." });
      return;
    }
    setState({ busy: false, error: null });
    await refresh();
    router.push(`/c/${body.conversation.id}`);
  }

  return (
    <>
      <label className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-[12.5px] text-neutral-600 focus-within:outline-2 focus-within:outline-sky-500 hover:bg-neutral-200/60 dark:text-neutral-400 dark:hover:bg-neutral-800">
        {state.busy ? "Importing…" : "Import conversation (JSON)"}
        <input
          ref={input}
          type="file"
          accept="application/json,.json"
          data-testid="import-file"
          className="sr-only"
          disabled={state.busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void importFile(file);
          }}
        />
      </label>
      {state.error ? (
        <p role="alert" data-testid="import-error" className="rounded-md bg-red-50 p-2 text-xs text-red-700 dark:bg-red-950/50 dark:text-red-300">
          {state.error}
        </p>
      ) : null}
    </>
  );
}
