"use client";
// The files picked on the home page, before there is a conversation to upload them to:
// kept in the browser, shown as chips, uploaded by the home composer when the first
// message starts the conversation.
import { useCallback, useState } from "react";
import { tooLargeMessage } from "@/lib/attachments/format";
import { draftKey, named, type DraftFile } from "./use-attachment-draft";

/** `maxBytes`: the server's limit; a larger file shows why at once and is never uploaded. */
export function usePickedFiles(maxBytes: number) {
  const [picked, setPicked] = useState<{ key: string; file: File }[]>([]);
  const add = useCallback((list: FileList | File[]) => setPicked((current) => [...current, ...Array.from(list, (file) => ({ key: draftKey(), file: named(file) }))]), []);
  const remove = useCallback((key: string) => setPicked((current) => current.filter((entry) => entry.key !== key)), []);
  const clear = useCallback(() => setPicked([]), []);
  const files: DraftFile[] = picked.map(({ key, file }) =>
    file.size > maxBytes
      ? { key, name: file.name, size: file.size, state: "failed", error: tooLargeMessage(file.name, maxBytes) }
      : { key, name: file.name, size: file.size, state: "picked" },
  );
  const raw = picked.filter((entry) => entry.file.size <= maxBytes).map((entry) => entry.file);
  return { files, raw, add, remove, clear, uploading: false };
}
