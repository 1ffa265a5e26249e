"use client";
import { useChat } from "@/components/stores/chat-store";
import type { MessageVersions } from "@/lib/views";

const ARROW = "rounded px-1 text-neutral-500 hover:bg-neutral-200 hover:text-neutral-900 disabled:opacity-30 dark:hover:bg-neutral-800 dark:hover:text-neutral-100";

/**
 * "‹ 2/3 ›" on a message with versions (regenerated replies, edited messages).
 * Switching shows that version with the conversation as it went on from it.
 */
export function VersionSwitcher({ versions }: { versions: MessageVersions }) {
  const busy = useChat((state) => state.busy);
  const switchVersion = useChat((state) => state.switchVersion);
  const { ids, current } = versions;
  const go = (index: number) => {
    const target = ids[index];
    if (target) void switchVersion(target);
  };
  return (
    <span data-testid="version-switcher" className="flex items-center font-mono text-[11px] text-neutral-600 dark:text-neutral-400">
      <button type="button" data-testid="version-previous" aria-label="Show the previous version" disabled={busy || current === 0} onClick={() => go(current - 1)} className={ARROW}>
        ‹
      </button>
      <span data-testid="version-label" aria-label={`Version ${current + 1} of ${ids.length}`}>
        {current + 1}/{ids.length}
      </span>
      <button type="button" data-testid="version-next" aria-label="Show the next version" disabled={busy || current === ids.length - 1} onClick={() => go(current + 1)} className={ARROW}>
        ›
      </button>
    </span>
  );
}

/**
 * Under the version shown: the later turns that went with the other versions are hidden,
 * not gone. Said where they were, so that a regenerated middle reply does not seem to
 * have deleted the rest of the conversation.
 */
export function LaterTurnsNotice({ versions }: { versions: MessageVersions }) {
  if (versions.elsewhere === 0) return null;
  const count = versions.elsewhere === 1 ? "1 later message belongs" : `${versions.elsewhere} later messages belong`;
  const which = versions.ids.length > 2 ? "other versions" : "the other version";
  return (
    <p data-testid="later-turns-notice" className="mt-1.5 rounded-md bg-neutral-100 px-2 py-1 text-[12px] text-neutral-700 dark:bg-neutral-900 dark:text-neutral-300">
      {count} to {which} — switch back with ‹ › above.
    </p>
  );
}
