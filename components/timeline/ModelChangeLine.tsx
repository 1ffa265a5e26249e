"use client";
// A line in the timeline where the conversation's model changed between replies: the
// reply below it (and those after) came from another model, with its own window.
import { contextWindow } from "@/lib/llm/models";
import { shortWindow } from "./model-change";

export function ModelChangeLine({ model }: { model: string }) {
  return (
    <div role="note" data-testid="model-change" className="flex items-center gap-3 py-1 text-[11.5px] text-neutral-600 dark:text-neutral-400">
      <span aria-hidden="true" className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
      <span>
        Model changed to <span className="font-medium text-neutral-800 dark:text-neutral-200">{model}</span> · window {shortWindow(contextWindow(model))}
      </span>
      <span aria-hidden="true" className="h-px flex-1 bg-neutral-200 dark:bg-neutral-800" />
    </div>
  );
}
