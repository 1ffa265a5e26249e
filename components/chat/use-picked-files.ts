"use client";
// The files picked on the home page, before there is a conversation to upload them to:
// kept in the browser, shown as chips, uploaded by the home composer when the first
// message starts the conversation.
import { useCallback, useState } from "react";
import { draftKey, named, type DraftFile } from "./use-attachment-draft";

export function usePickedFiles() {
  const [picked, setPicked] = useState<{ key: string; file: File }[]>([]);
  const add = useCallback((list: FileList | File[]) => setPicked((current) => [...current, ...Array.from(list, (file) => ({ key: draftKey(), file: named(file) }))]), []);
  const remove = useCallback((key: string) => setPicked((current) => current.filter((entry) => entry.key !== key)), []);
  const clear = useCallback(() => setPicked([]), []);
  const files: DraftFile[] = picked.map(({ key, file }) => ({ key, name: file.name, size: file.size, state: "picked" }));
  return { files, raw: picked.map((entry) => entry.file), add, remove, clear, uploading: false };
}
