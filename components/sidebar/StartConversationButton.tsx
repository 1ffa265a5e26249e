"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createConversationAction } from "@/app/actions";
import { useConversationList } from "@/components/stores/conversation-list-store";
import { Button } from "../ui/Button";
import { PlusIcon } from "../ui/icons";

export function StartConversationButton() {
  const router = useRouter();
  const refresh = useConversationList((state) => state.refresh);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <div>
      <Button
        variant="primary"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          const result = await createConversationAction({});
          setPending(false);
          if (!result.ok) return setError(result.error.message);
          await refresh();
          router.push(`/c/${result.data.id}`);
        }}
      >
        <PlusIcon /> Start a conversation
      </Button>
      {error ? (
        <p role="alert" className="mt-2 text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
