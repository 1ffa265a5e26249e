"use client";
import { memo, useState, type ReactNode } from "react";
import { useChat } from "@/components/stores/chat-store";
import { formatCount, formatTime } from "@/components/format";
import type { MessageView } from "@/lib/views";
import { Markdown } from "../ui/Markdown";
import { lastMessage } from "@/components/timeline/items";
import { PencilIcon, PinIcon, RegenerateIcon } from "../ui/icons";
import { Button } from "../ui/Button";
import { dataAttributes } from "../ui/data-attributes";
import { MessageEditor } from "./MessageEditor";
import { CopyButton } from "../ui/CopyButton";
import { ReasoningBlock } from "./ReasoningBlock";
import { ToolCallList } from "./ToolCallList";
import { ToolCallCard } from "./ToolCallCard";
import { sameResults, toolCallStatus, type ToolMessage } from "./tool-cards";
import { LaterTurnsNotice, VersionSwitcher } from "./VersionSwitcher";
import { PinToggle } from "./PinToggle";
import { DeleteMessage } from "./DeleteMessage";
import { UserMessageBody } from "../chat/AttachmentMessage";
import { useReadOnly } from "./read-only";

export const ROLE_LABELS: Record<MessageView["role"], string> = {
  user: "You",
  assistant: "Assistant",
  tool: "Tool",
  // Stored system messages are context the model reads (a summary carried over from
  // another conversation, an imported instruction), not a turn awaiting a reply.
  system: "Context",
};

const ROLE_STYLES: Record<MessageView["role"], string> = {
  user: "bg-neutral-100/80 dark:bg-neutral-900",
  assistant: "",
  tool: "",
  system: "bg-amber-50/60 dark:bg-amber-950/20",
};

// A message's number is its permanent id: links (#m-9), search hits and summaries'
// ranges (#3–#9) name it, so it never changes and a gap is not renumbered away.
const SEQ_TITLE = "Message number: it stays with the message for links, search and summaries; skipped numbers belong to other versions or deleted turns.";

function StatusBadge({ message }: { message: MessageView }) {
  if (message.status === "stopped")
    return (
      <span data-testid="message-status" className="rounded bg-neutral-200 px-1.5 py-px text-[10.5px] font-semibold text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300">
        stopped
      </span>
    );
  if (message.status === "error")
    return (
      <span data-testid="message-status" className="rounded bg-red-100 px-1.5 py-px text-[10.5px] font-semibold text-red-800 dark:bg-red-950 dark:text-red-300">
        error
      </span>
    );
  return null;
}

type IconActionProps = { testId: string; label: string; title: string; disabled: boolean; onClick: () => void; children: ReactNode };

/** An icon button of the message's hover toolbar (edit, regenerate). */
function IconAction({ testId, label, title, disabled, onClick, children }: IconActionProps) {
  return (
    <button
      type="button"
      data-testid={testId}
      disabled={disabled}
      aria-label={label}
      title={title}
      onClick={onClick}
      className="rounded p-1 text-neutral-400 hover:bg-neutral-200 hover:text-neutral-800 disabled:opacity-40 dark:hover:bg-neutral-800 dark:hover:text-neutral-200"
    >
      {children}
    </button>
  );
}

/** The results of a reply's tool calls, paired by the timeline that holds both (tool-cards.ts). */
export type ReplyTools = { results: ReadonlyMap<string, ToolMessage> | undefined; open: boolean };

type MessageItemProps = { message: MessageView; nested?: boolean; tools?: ReplyTools };

function sameProps(a: MessageItemProps, b: MessageItemProps): boolean {
  return (
    a.message === b.message &&
    a.nested === b.nested &&
    a.tools?.open === b.tools?.open &&
    sameResults(a.tools?.results, b.tools?.results)
  );
}

export const MessageItem = memo(function MessageItem({ message, nested = false, tools }: MessageItemProps) {
  const busy = useChat((state) => state.busy);
  const regenerate = useChat((state) => state.regenerate);
  const continueReply = useChat((state) => state.continueReply);
  const isLast = useChat((state) => lastMessage(state.items)?.id === message.id);
  const [editing, setEditing] = useState(false);
  const readOnly = useReadOnly();
  // The user's own message before the server stored it: shown, not yet actionable.
  const pending = message.status === "streaming";
  const editable = message.role === "user" && !nested && !pending && !readOnly;
  // Versions and regeneration act on the conversation as shown, not inside a compaction.
  const regenerable = message.role === "assistant" && !nested && !pending && !readOnly;
  const continuable = regenerable && isLast && message.status === "stopped";

  return (
    <article
      data-testid="message"
      {...dataAttributes({ role: message.role, seq: message.seq, status: message.status, pinned: message.pinned || undefined })}
      aria-label={`${ROLE_LABELS[message.role]} message #${message.seq}`}
      className={`group relative rounded-lg border-l-2 px-3 py-2 ${ROLE_STYLES[message.role]} ${
        message.pinned ? "border-amber-400 dark:border-amber-500" : "border-transparent"
      }`}
    >
      <header className="mb-0.5 flex items-center gap-2 text-[11.5px]">
        <span className="shrink-0 font-semibold text-neutral-800 dark:text-neutral-200">{ROLE_LABELS[message.role]}</span>
        {/* A link to this message: opens the tree down to it from anywhere (copy it, or follow it after a reload). */}
        <a href={`#m-${message.seq}`} data-testid="message-link" className="shrink-0 font-mono text-neutral-600 hover:underline dark:text-neutral-400" title={SEQ_TITLE}>
          #{message.seq}
        </a>
        {message.role === "assistant" && message.model ? <span className="min-w-0 truncate font-mono text-neutral-600 dark:text-neutral-400" title={message.model}>{message.model}</span> : null}
        <StatusBadge message={message} />
        {message.versions && !nested && !pending && !readOnly ? <VersionSwitcher versions={message.versions} /> : null}
        {message.pinned ? (
          <span className="flex items-center gap-0.5 text-[10.5px] font-semibold text-amber-700 dark:text-amber-400">
            <PinIcon className="size-3" /> {nested ? "pinned: in the model's view beside the summary" : "pinned"}
          </span>
        ) : null}
        {/* On a phone the model's name gives way (cut, named in full on hover) before the time wraps. */}
        <span className="ml-auto flex shrink-0 items-center gap-1.5 whitespace-nowrap text-neutral-600 dark:text-neutral-400">
          <span className="hidden font-mono group-hover:inline" title="Tokens">
            {formatCount(message.tokenCount)} tok
          </span>
          <time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time>
        </span>
        {pending ? (
          <span data-testid="message-sending" className="text-[10.5px] text-neutral-500">
            sending…
          </span>
        ) : null}
        <span className={`${pending ? "hidden" : "flex"} items-center opacity-0 group-hover:opacity-100 group-focus-within:opacity-100 has-[[aria-pressed=true]]:opacity-100 [@media(hover:none)]:opacity-100`}>
          {editable ? (
            <IconAction
              testId="edit-message"
              disabled={busy}
              label="Edit this message and regenerate from here"
              title="Edit and regenerate"
              onClick={() => setEditing(true)}
            >
              <PencilIcon />
            </IconAction>
          ) : null}
          {regenerable ? (
            <IconAction
              testId="regenerate-reply"
              disabled={busy}
              label="Regenerate this reply (the current one stays as a version)"
              title="Regenerate"
              onClick={() => void regenerate(message.seq)}
            >
              <RegenerateIcon />
            </IconAction>
          ) : null}
          {message.content && message.role !== "tool" ? <CopyButton text={message.content} label="Copy the message" testId="copy-message" /> : null}
          {readOnly ? null : <PinToggle message={message} />}
          {/* Inside a compaction the summary retells it: the server refuses, so it is not offered there. */}
          {!nested && !readOnly ? <DeleteMessage message={message} /> : null}
        </span>
      </header>
      {editing ? (
        <MessageEditor message={message} onClose={() => setEditing(false)} />
      ) : message.role === "tool" ? (
        <ToolCallCard
          call={null}
          result={message}
          status={toolCallStatus(message, false, false)}
          cardKey={`${message.id}:${message.toolCallId}`}
          holdsResult={false}
        />
      ) : (
        <>
          {message.role === "assistant" && message.reasoning ? <ReasoningBlock text={message.reasoning} /> : null}
          {message.content ? message.role === "user" ? <UserMessageBody message={message} /> : <Markdown text={message.content} breaks={false} /> : null}
          {/* A message the model never answered, with the conversation gone on after it: why, where the Retry row said it. */}
          {message.role === "user" && message.error && !isLast ? (
            <p data-testid="message-unanswered" className="mt-1 text-[12px] text-neutral-600 dark:text-neutral-400">
              Not answered. The model failed: {message.error}
            </p>
          ) : null}
          {/* Stopped while the model was still thinking: the thinking is kept, there is no answer yet. */}
          {message.role === "assistant" && message.status === "stopped" && !message.content && !message.toolCalls.length ? (
            <p data-testid="stopped-before-answer" className="text-[12.5px] italic text-neutral-600 dark:text-neutral-400">
              Stopped before the answer began.
            </p>
          ) : null}
          {message.role === "assistant" && message.toolCalls.length > 0 ? (
            <ToolCallList replyId={message.id} calls={message.toolCalls} results={tools?.results} open={tools?.open ?? false} />
          ) : null}
          {/* A reply the user stopped is not an error: only failed replies show why. */}
          {message.role === "assistant" && message.status === "error" && message.error ? (
            <p data-testid="message-error" className="mt-1 text-[12px] text-red-700 dark:text-red-400">
              {message.error}
            </p>
          ) : null}
          {/* Under a stopped reply that is the conversation's last message: ask the model to finish it. */}
          {continuable ? (
            <Button data-testid="continue-reply" size="xs" className="mt-1.5" disabled={busy} onClick={() => void continueReply(message.seq)}>
              Continue
            </Button>
          ) : null}
        </>
      )}
      {message.versions && !nested && !pending && !readOnly ? <LaterTurnsNotice versions={message.versions} /> : null}
    </article>
  );
}, sameProps);
