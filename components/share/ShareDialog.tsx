"use client";
import { useId, useRef, useState } from "react";
import { createShareLinkAction, revokeShareLinkAction } from "@/app/actions";
import { fetchRead } from "../queries/fetch-read";
import type { ShareLinkView } from "@/lib/db/shares";
import { formatTime } from "@/components/format";
import { Button } from "../ui/Button";
import { CopyButton } from "../ui/CopyButton";
import { ShareIcon } from "../ui/icons";
import { HeaderLabel, PHONE_MENU_PLAIN, PHONE_MENU_ROW } from "../chat/HeaderLabel";
import { Dialog } from "@/components/ui/Dialog";

const EXPIRY_CHOICES = [
  { value: "never", label: "Never", days: null },
  { value: "1", label: "1 day", days: 1 },
  { value: "7", label: "7 days", days: 7 },
  { value: "30", label: "30 days", days: 30 },
] as const;
type ExpiryValue = (typeof EXPIRY_CHOICES)[number]["value"];

type Status = { tone: "ok" | "error"; text: string } | null;

function when(iso: string | null, none: string): string {
  return iso ? formatTime(iso) : none;
}

function LinkRow({ link, onRevoke, busy }: { link: ShareLinkView; onRevoke: () => void; busy: boolean }) {
  return (
    <li data-testid="share-link" data-id={link.id} data-expired={link.expired} className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 py-2 text-[12px]">
      <dl className="grid min-w-0 flex-1 grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
        <dt className="text-neutral-500">Created</dt>
        <dd>{when(link.createdAt, "—")}</dd>
        <dt className="text-neutral-500">Expires</dt>
        <dd data-testid="share-link-expiry" className={link.expired ? "font-semibold text-red-700 dark:text-red-400" : ""}>
          {link.expired ? `Expired ${when(link.expiresAt, "")}` : when(link.expiresAt, "Never")}
        </dd>
        <dt className="text-neutral-500">Last opened</dt>
        <dd data-testid="share-link-opened">{when(link.lastOpenedAt, "Not yet")}</dd>
      </dl>
      <Button size="xs" variant="danger" data-testid="share-link-revoke" disabled={busy} onClick={onRevoke}>
        {link.expired ? "Remove" : "Revoke"}
      </Button>
    </li>
  );
}

/**
 * "Share…": read-only links to this conversation. A link's address is shown once, when it
 * is made (only its hash is stored); the list says when each was made, expires and was
 * last opened, and revokes it.
 */
export function ShareDialog({ conversationId }: { conversationId: string }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [links, setLinks] = useState<ShareLinkView[] | null>(null);
  const [expiry, setExpiry] = useState<ExpiryValue>("never");
  const [created, setCreated] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  const expiryId = useId();
  const createdId = useId();

  async function reload() {
    const result = await fetchRead("shareLinks", conversationId);
    if (result.ok) setLinks(result.data);
    else setStatus({ tone: "error", text: `The links could not be loaded: ${result.error.message}` });
  }

  function open() {
    setStatus(null);
    setCreated(null);
    setLinks(null);
    dialogRef.current?.showModal();
    void reload();
  }

  async function create() {
    setBusy(true);
    setStatus(null);
    const days = EXPIRY_CHOICES.find((choice) => choice.value === expiry)?.days ?? null;
    const result = await createShareLinkAction({ conversationId, expiresInDays: days });
    setBusy(false);
    if (!result.ok) {
      setStatus({ tone: "error", text: `No link was made: ${result.error.message}` });
      return;
    }
    setCreated(`${window.location.origin}/s/${result.data.token}`);
    setStatus({ tone: "ok", text: "Link made. Copy it now: it is not shown again." });
    await reload();
  }

  async function revoke(link: ShareLinkView) {
    const question = link.expired ? "Remove this expired link from the list?" : "Revoke this link? Anyone who has it will no longer be able to open the conversation.";
    if (!window.confirm(question)) return;
    setBusy(true);
    const result = await revokeShareLinkAction({ conversationId, linkId: link.id });
    setBusy(false);
    if (!result.ok) {
      setStatus({ tone: "error", text: `Not revoked: ${result.error.message}` });
      return;
    }
    setStatus({ tone: "ok", text: link.expired ? "Removed." : "Revoked: the link no longer opens anything." });
    await reload();
  }

  return (
    <>
      <Button data-testid="share-open" title="Share a read-only link" onClick={open} className={`${PHONE_MENU_ROW} ${PHONE_MENU_PLAIN}`}>
        <ShareIcon className="size-3.5" /> <HeaderLabel>Share…</HeaderLabel>
      </Button>
      <Dialog
        dialogRef={dialogRef}
        testId="share-dialog"
        width="w-[min(34rem,calc(100vw-1.5rem))]"
        title="Share a read-only link"
      >
        <div className="space-y-3 p-4 text-[12.5px]">
          <p className="text-neutral-600 dark:text-neutral-400">
            Anyone with the link can read this conversation as it is when they open it — later messages included — with its summaries and
            originals, but nothing else of yours: not your other conversations, settings, costs or account. Revoke the link to end that.
          </p>
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              void create();
            }}
          >
            <div className="flex flex-col gap-1">
              <label htmlFor={expiryId} className="text-[12px] font-medium">
                Expires after
              </label>
              <select
                id={expiryId}
                data-testid="share-expiry"
                value={expiry}
                onChange={(event) => setExpiry(event.target.value as ExpiryValue)}
                className="h-7 rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-900"
              >
                {EXPIRY_CHOICES.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" variant="primary" data-testid="share-create" disabled={busy}>
              {busy ? "Working…" : "Create link"}
            </Button>
          </form>
          {created ? (
            <div className="flex min-w-0 items-center gap-2 rounded-md border border-sky-300 bg-sky-50 p-2 dark:border-sky-800 dark:bg-sky-950/40">
              <label htmlFor={createdId} className="sr-only">
                The new link
              </label>
              <input
                id={createdId}
                data-testid="share-url"
                readOnly
                value={created}
                onFocus={(event) => event.currentTarget.select()}
                className="min-w-0 flex-1 bg-transparent font-mono text-[12px] outline-none"
              />
              <CopyButton text={created} label="Copy the link" testId="share-copy" withText />
            </div>
          ) : null}
          {status ? (
            <p
              role={status.tone === "error" ? "alert" : "status"}
              data-testid="share-status"
              className={status.tone === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}
            >
              {status.text}
            </p>
          ) : null}
          <section aria-labelledby="share-links-title">
            <h3 id="share-links-title" className="text-[12.5px] font-semibold">
              Links to this conversation
            </h3>
            {links === null ? (
              <p className="py-2 text-neutral-500">Loading…</p>
            ) : links.length === 0 ? (
              <p data-testid="share-links-empty" className="py-2 text-neutral-500">
                No links yet.
              </p>
            ) : (
              <ul data-testid="share-links" className="divide-y divide-neutral-100 dark:divide-neutral-800">
                {links.map((link) => (
                  <LinkRow key={link.id} link={link} busy={busy} onRevoke={() => void revoke(link)} />
                ))}
              </ul>
            )}
          </section>
        </div>
      </Dialog>
    </>
  );
}
