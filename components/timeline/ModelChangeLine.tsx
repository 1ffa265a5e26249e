"use client";
// A line in the timeline where the conversation's model changed between replies: the
// reply below it (and those after) came from another model, with its own window.
import { useMeter } from "@/components/queries/conversation-data";
import { useChat } from "@/components/stores/chat-store";
import { contextWindow } from "@/lib/llm/models";
import { shortWindow } from "./model-change";
import { useReadOnly } from "./read-only";

export function ModelChangeLine({ model }: { model: string }) {
  const conversationId = useChat((state) => state.conversationId);
  // A shared link's reader has no meter to read (it is the owner's).
  const meter = useMeter(useReadOnly() ? null : conversationId);
  // The meter's window is the one this conversation runs with (the settings' overrides
  // applied); another model's is the built-in table's.
  const window = meter?.model === model ? meter.contextWindow : contextWindow(model);
  return (
    <div role="note" data-testid="model-change" className="flex items-center gap-3 py-1 text-[11.5px] text-neutral-600 dark:text-neutral-400">
      <span aria-hidden="true" className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
      <span>
        Model changed to <span className="font-medium text-neutral-800 dark:text-neutral-200">{model}</span> · window {shortWindow(window)}
      </span>
      <span aria-hidden="true" className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
    </div>
  );
}
