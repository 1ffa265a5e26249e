"use client";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useConversationList } from "@/components/stores/conversation-list-store";
import type { ImportView } from "@/lib/views";

const POLL_MS = 500;
const unreachable = "The import failed: the server could not be reached.";

const isMarkdown = (file: File) => /\.(md|markdown)$/i.test(file.name) || file.type === "text/markdown";
const isJson = (file: File) => /\.json$/i.test(file.name) || file.type === "application/json";

/**
 * Imports a JSON export (one conversation, or the bulk file of all of them) or a Markdown
 * transcript as new conversations (through the API: exports exceed an action's body limit). The file is sent as it is read from disk; the server answers with an import
 * job, polled for its progress until it holds the new conversation or the reason it failed.
 */
export function ImportButton() {
  const router = useRouter();
  const refresh = useConversationList((state) => state.refresh);
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<{ busy: boolean; messages: number; error: string | null }>({ busy: false, messages: 0, error: null });

  async function importFile(file: File) {
    const fail = (error: string) => setState({ busy: false, messages: 0, error });
    // The file dialog's "all files" lets anything through, and the server would call it
    // "not valid JSON". A file named neither way is an export when it starts like JSON
    // (a download saved without its extension).
    if (!isMarkdown(file) && !isJson(file) && !/^\s*[[{]/.test(await file.slice(0, 64).text())) {
      return fail(`“${file.name}” is neither a Strata export (the .json file Export gives) nor a Markdown transcript (.md): nothing was imported.`);
    }
    setState({ busy: true, messages: 0, error: null });
    const response = await fetch("/api/conversations/import", {
      method: "POST",
      headers: { "content-type": isMarkdown(file) ? "text/markdown" : "application/json", prefer: "respond-async" },
      body: file,
    }).catch(() => null);
    const body = (await response?.json().catch(() => null)) as { import?: { id: string }; error?: { message: string } } | null;
    if (!response?.ok || !body?.import) return fail(body?.error?.message ?? unreachable);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const poll = await fetch(`/api/imports/${body.import.id}`).catch(() => null);
      const status = (await poll?.json().catch(() => null)) as { import?: ImportView; error?: { message: string } } | null;
      const job = status?.import;
      if (!poll?.ok || !job) return fail(status?.error?.message ?? unreachable);
      if (job.state === "failed") return fail(job.error);
      if (job.state === "done") {
        setState({ busy: false, messages: 0, error: null });
        await refresh();
        router.push(`/c/${job.conversationId}`);
        return;
      }
      setState({ busy: true, messages: job.messagesDone, error: null });
    }
  }

  return (
    <>
      <label className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-[12.5px] text-neutral-600 focus-within:outline-2 focus-within:outline-sky-500 hover:bg-neutral-200/60 dark:text-neutral-400 dark:hover:bg-neutral-800">
        {state.busy ? `Importing… ${state.messages.toLocaleString("en-US")} messages` : "Import conversations (JSON or Markdown)"}
        <input
          ref={input}
          type="file"
          accept="application/json,.json,text/markdown,.md,.markdown"
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
