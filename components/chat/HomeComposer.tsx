"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createConversationAction, deleteConversationAction } from "@/app/actions";
import { useConversationList } from "@/components/stores/conversation-list-store";
import { Composer } from "./Composer";
import { stashFirstMessage } from "./first-message";
import { upload } from "./use-attachment-draft";

/**
 * The home page's message box: the first message starts a conversation (none is stored
 * before it). Its files are uploaded to the new conversation first; one refused (an
 * image for a model that takes none, a file too large) removes the conversation again,
 * says why, and leaves the text and the files in the box.
 */
export function HomeComposer({ maxChars, maxAttachmentBytes }: { maxChars: number; maxAttachmentBytes: number }) {
  const router = useRouter();
  const refresh = useConversationList((state) => state.refresh);
  const [error, setError] = useState<string | null>(null);
  return (
    <div data-testid="home-composer" className="w-full text-left">
      <Composer
        maxChars={maxChars}
        maxAttachmentBytes={maxAttachmentBytes}
        start={async (content, files) => {
          setError(null);
          const result = await createConversationAction({});
          if (!result.ok) {
            setError(`Could not start a conversation: ${result.error.message}`);
            return false;
          }
          const ids: string[] = [];
          try {
            for (const file of files) ids.push((await upload(result.data.id, file)).id);
          } catch (failure) {
            await deleteConversationAction(result.data.id);
            setError(failure instanceof Error ? failure.message : String(failure));
            return false;
          }
          stashFirstMessage(result.data.id, content, ids);
          void refresh();
          router.push(`/c/${result.data.id}`);
          return true;
        }}
      />
      {error ? (
        <p role="alert" data-testid="home-composer-error" className="px-4 text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
