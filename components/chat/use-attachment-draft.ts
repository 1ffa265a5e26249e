"use client";
// The files waiting in the composer: each is uploaded as soon as it is picked (the
// server extracts and counts it once), shown as a chip, removable until the message is sent.
import { useCallback, useEffect, useState } from "react";
import { useChat } from "@/components/stores/chat-store";
import { useAttachments } from "@/components/stores/attachment-store";
import { tooLargeMessage } from "@/lib/attachments/format";
import type { AttachmentView } from "@/lib/db/attachments";

export type DraftFile =
  // Picked on the home page: uploaded when the message starts its conversation.
  | { key: string; name: string; size: number; state: "picked" }
  | { key: string; name: string; size: number; state: "uploading" }
  | { key: string; name: string; size: number; state: "ready"; attachment: AttachmentView }
  | { key: string; name: string; size: number; state: "failed"; error: string };

let nextKey = 0;

/** A key for a new chip. */
export const draftKey = () => `f${++nextKey}`;

/** A pasted file without a name gets one. */
export const named = (file: File) => (file.name ? file : new File([file], "pasted.txt", { type: file.type }));

/** Uploads a file for the conversation's next message; throws with the server's reason when refused. */
export async function upload(conversationId: string, file: File): Promise<AttachmentView> {
  const response = await fetch(`/api/conversations/${encodeURIComponent(conversationId)}/attachments?name=${encodeURIComponent(file.name)}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: file,
  });
  const body = (await response.json().catch(() => null)) as { attachment?: AttachmentView; error?: { message?: string } } | null;
  if (!response.ok || !body?.attachment) throw new Error(body?.error?.message ?? `The upload failed (HTTP ${response.status}).`);
  return body.attachment;
}

/**
 * `maxBytes`: the server's limit (STRATA_ATTACHMENT_MAX_BYTES). A larger file is refused
 * here, before a byte of it is sent: the server would refuse it only after reading it all.
 */
export function useAttachmentDraft(conversationId: string | null, maxBytes: number) {
  // Each file remembers its conversation: another conversation starts with an empty tray.
  const [all, setFiles] = useState<(DraftFile & { conversationId: string })[]>([]);
  const files: DraftFile[] = all.filter((entry) => entry.conversationId === conversationId);
  // The sent messages' chips: read when the conversation opens and after every turn.
  const settled = useChat((state) => state.settled);
  useEffect(() => {
    if (conversationId) void useAttachments.getState().load(conversationId);
  }, [conversationId, settled]);

  const add = useCallback(
    (picked: FileList | File[]) => {
      if (!conversationId) return;
      for (const file of Array.from(picked)) {
        const key = draftKey();
        const name = named(file).name;
        if (file.size > maxBytes) {
          setFiles((current) => [...current, { key, conversationId, name, size: file.size, state: "failed", error: tooLargeMessage(name, maxBytes) }]);
          continue;
        }
        setFiles((current) => [...current, { key, conversationId, name, size: file.size, state: "uploading" }]);
        upload(conversationId, named(file)).then(
          (attachment) => setFiles((current) => current.map((entry) => (entry.key === key ? { key, conversationId, name, size: file.size, state: "ready", attachment } : entry))),
          (error: unknown) =>
            setFiles((current) =>
              current.map((entry) => (entry.key === key ? { key, conversationId, name, size: file.size, state: "failed", error: error instanceof Error ? error.message : String(error) } : entry)),
            ),
        );
      }
    },
    [conversationId, maxBytes],
  );

  const remove = useCallback((key: string) => {
    setFiles((current) => {
      const entry = current.find((candidate) => candidate.key === key);
      // Only the server copy of a ready upload needs removing; it is deleted after a day anyway.
      if (entry?.state === "ready") void fetch(`/api/attachments/${encodeURIComponent(entry.attachment.id)}`, { method: "DELETE" }).catch(() => undefined);
      return current.filter((candidate) => candidate.key !== key);
    });
  }, []);

  const clear = useCallback(() => setFiles((current) => current.filter((entry) => entry.conversationId !== conversationId)), [conversationId]);
  const ids = files.flatMap((entry) => (entry.state === "ready" ? [entry.attachment.id] : []));
  const uploading = files.some((entry) => entry.state === "uploading");
  return { files, ids, uploading, add, remove, clear };
}
