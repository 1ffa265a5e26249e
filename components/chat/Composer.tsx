"use client";
import { useEffect, useRef, useState } from "react";
import { useChat } from "@/components/stores/chat-store";
import { Button } from "../ui/Button";
import { StatusNote } from "../ui/StatusNote";
import { ArrowUpIcon, StopIcon } from "../ui/icons";
import { DeleteLastTurn } from "./DeleteLastTurn";
import { peekFirstMessage, takeFirstMessage } from "./first-message";
import { AttachButton, DraftChips } from "./AttachmentChips";
import { useAttachmentDraft } from "./use-attachment-draft";
import { usePickedFiles } from "./use-picked-files";

// Commands are matched case-insensitively: "/Compact" is a command, not a message.
const COMPACT_COMMAND = /^\/compact(?:\s+([\s\S]*))?$/i;

const numberFormat = new Intl.NumberFormat("en-US");

/** The composer's id, for the skip link and the shortcut that focus it. */
export const COMPOSER_ID = "composer";

/**
 * The message box. In a conversation it sends turns; on the home page (`start`) its text
 * and files start a new conversation instead (`start` resolves false when that failed:
 * the text and the files stay).
 */
export function Composer({
  maxChars,
  maxAttachmentBytes,
  start,
  shownConversationId,
}: {
  maxChars: number;
  /** The server's attachment limit: a larger file is refused in the browser. */
  maxAttachmentBytes: number;
  start?: (content: string, files: File[]) => Promise<boolean>;
  /** The conversation on screen (the store opens it just after the first render). */
  shownConversationId?: string;
}) {
  const busy = useChat((state) => state.busy);
  const streaming = useChat((state) => state.abort !== null) && !start;
  const remoteTurn = useChat((state) => state.remoteTurn);
  const deleted = useChat((state) => state.deleted);
  const send = useChat((state) => state.send);
  const stop = useChat((state) => state.stop);
  const compactNow = useChat((state) => state.compactNow);
  // What was typed on the home page for this conversation shows at once, and is sent when the store has opened it.
  const [text, setText] = useState(() => (shownConversationId ? (peekFirstMessage(shownConversationId) ?? "") : ""));
  const [starting, setStarting] = useState(false);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const conversationId = useChat((state) => (start ? null : state.conversationId));
  // Files go with messages of an open conversation; on the home page they wait in the
  // browser until the first message has made one to upload them to.
  const attachments = useAttachmentDraft(conversationId, maxAttachmentBytes);
  const picked = usePickedFiles(maxAttachmentBytes);
  const tray = start ? picked : attachments;
  const canAttach = Boolean(start ?? conversationId);

  const over = text.length - maxChars;
  // The store describes the open conversation; the home page has none.
  const blocked = start ? starting : busy || remoteTurn || deleted;
  // A message may be files only.
  const hasFiles = start ? picked.raw.length > 0 : attachments.ids.length > 0;
  const sendable = (content: string, withFiles = hasFiles) =>
    !blocked && !tray.uploading && (content.trim().length > 0 || withFiles) && content.length <= maxChars;

  const resize = () => {
    const element = textareaRef.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, 240)}px`;
  };

  const clear = () => {
    setText("");
    requestAnimationFrame(resize);
  };

  async function submit(content = text) {
    if (!sendable(content)) return;
    if (start) {
      setStarting(true);
      // Started, the page moves to the new conversation, which sends the text from there:
      // the box keeps it (busy) until that page replaces it, rather than emptying first.
      if (!(await start(content, picked.raw))) setStarting(false);
      return;
    }
    const command = COMPACT_COMMAND.exec(content.trim());
    if (command) {
      clear();
      await compactNow(command[1] ?? "");
    } else {
      // The text stays in the box until the server has stored the message: a refused
      // or failed send (too long, conversation deleted, server down) loses nothing.
      await send(
        content,
        () => {
          clear();
          attachments.clear();
        },
        attachments.ids,
      );
    }
    textareaRef.current?.focus();
  }

  // A conversation that opens is ready to type into, and sends what was typed on the home page for it.
  useEffect(() => {
    if (!start && !conversationId) return;
    textareaRef.current?.focus({ preventScroll: true });
    if (!conversationId) return;
    const first = takeFirstMessage(conversationId);
    if (first && sendable(first.content, first.attachmentIds.length > 0)) void send(first.content, clear, first.attachmentIds);
    // Only on opening: `sendable` changes with every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversationId]);

  const hint = deleted
    ? "This conversation was deleted."
    : remoteTurn && !busy
      ? "A reply is still being written in this conversation (in another tab or window). You can send when it is done."
      : null;

  return (
    <form
      className="shrink-0 border-t border-neutral-200 px-4 pt-3 pb-2 dark:border-neutral-800"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      onDragOver={(event) => {
        if (canAttach && event.dataTransfer.types.includes("Files")) event.preventDefault();
      }}
      onDrop={(event) => {
        if (!canAttach || event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        tray.add(event.dataTransfer.files);
      }}
    >
      <StatusNote testId="composer-hint" className="mb-1.5 text-[12px] text-amber-800 dark:text-amber-300">
        {hint}
      </StatusNote>
      <DraftChips files={tray.files} onRemove={tray.remove} />
      <div className="flex items-end gap-2 rounded-lg border border-neutral-300 bg-white p-1.5 focus-within:border-sky-500 focus-within:ring-1 focus-within:ring-sky-500/40 dark:border-neutral-700 dark:bg-neutral-900">
        {canAttach ? <AttachButton onFiles={tray.add} disabled={deleted || (start !== undefined && starting)} /> : null}
        <textarea
          ref={textareaRef}
          id={COMPOSER_ID}
          data-testid="composer"
          aria-label="Message"
          aria-describedby="composer-length"
          aria-invalid={over > 0 || undefined}
          rows={1}
          value={text}
          placeholder="Message…"
          onChange={(event) => {
            setText(event.target.value);
            resize();
          }}
          onPaste={(event) => {
            if (!canAttach || event.clipboardData.files.length === 0) return;
            event.preventDefault();
            tray.add(event.clipboardData.files);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void submit();
            }
          }}
          className="max-h-60 min-h-8 flex-1 resize-none bg-transparent px-1.5 py-1 text-[13.5px] leading-relaxed outline-none placeholder:text-neutral-400"
        />
        {streaming ? (
          <Button
            variant="secondary"
            data-testid="stop-button"
            onClick={(event) => {
              // Stop takes Send's place the moment a turn starts, so the second click of a
              // double-click on Send lands here: that is no wish to stop (it stopped the turn
              // before any reply, every time). A deliberate click is a first click.
              if (event.detail > 1) return;
              void stop();
            }}
            aria-label="Stop the reply"
          >
            <StopIcon /> Stop
          </Button>
        ) : (
          <Button type="submit" variant="primary" data-testid="send-button" disabled={!sendable(text)} aria-label="Send">
            <ArrowUpIcon /> Send
          </Button>
        )}
      </div>
      <div className="mt-1.5 flex items-center justify-between gap-3 text-[11px] text-neutral-500">
        {/* Keyboard hints mean nothing on a touch screen, and a phone needs the line's room. */}
        <span className="max-sm:hidden">
          <kbd className="font-mono">Enter</kbd> send · <kbd className="font-mono">Shift+Enter</kbd> newline
          {start ? null : (
            <>
              {" "}
              · <code className="font-mono">/compact …</code> compress with instructions
            </>
          )}
        </span>
        <span className="ml-auto flex items-center gap-3">
          <span
            id="composer-length"
            data-testid="composer-length"
            data-over={over > 0 || undefined}
            aria-live={over > 0 ? "polite" : "off"}
            className={`font-mono tabular-nums ${over > 0 ? "font-semibold text-red-700 dark:text-red-400" : ""}`}
          >
            {over > 0
              ? `${numberFormat.format(text.length)} / ${numberFormat.format(maxChars)} characters: ${numberFormat.format(over)} too many`
              : text.length > 0
                ? `${numberFormat.format(text.length)} / ${numberFormat.format(maxChars)}`
                : ""}
          </span>
          {start ? null : <DeleteLastTurn />}
        </span>
      </div>
    </form>
  );
}
