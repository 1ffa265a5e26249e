"use client";
import { formatTime } from "@/components/format";
import { CopyButton } from "../ui/CopyButton";
import { Button } from "../ui/Button";

export type ShownResetLink = { email: string; url: string; expiresAt: string };

/** A reset link just made: shown once, for the admin to hand over (there is no mail). */
export function UserResetLink({ link, onClose }: { link: ShownResetLink; onClose: () => void }) {
  return (
    <div role="status" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-[12.5px] dark:border-amber-800 dark:bg-amber-950/40" data-testid="reset-link">
      <p>
        Password reset link for <strong>{link.email}</strong>: it works once, until {formatTime(link.expiresAt)}, and signs them out everywhere when
        used. Making another one replaces it. Send it to them yourself.
      </p>
      <div className="flex items-center gap-2">
        <input
          readOnly
          value={link.url}
          aria-label="Reset link"
          data-testid="reset-link-url"
          onFocus={(event) => event.currentTarget.select()}
          className="h-7 min-w-0 flex-1 rounded-md border border-neutral-300 bg-white px-2 font-mono text-[11.5px] dark:border-neutral-700 dark:bg-neutral-950"
        />
        <CopyButton text={link.url} label="Copy the reset link" testId="reset-link-copy" withText />
        <Button size="xs" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}
