"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createConversationAction } from "@/app/actions";
import { useConversationList } from "@/components/stores/conversation-list-store";
import { Composer } from "./Composer";
import { stashFirstMessage } from "./first-message";

/** The home page's message box: the first message starts a conversation (none is stored before it). */
export function HomeComposer({ maxChars }: { maxChars: number }) {
  const router = useRouter();
  const refresh = useConversationList((state) => state.refresh);
  const [error, setError] = useState<string | null>(null);
  return (
    <div data-testid="home-composer" className="w-full text-left">
      <Composer
        maxChars={maxChars}
        start={async (content) => {
          setError(null);
          const result = await createConversationAction({});
          if (!result.ok) {
            setError(`Could not start a conversation: ${result.error.message}`);
            return false;
          }
          stashFirstMessage(result.data.id, content);
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
