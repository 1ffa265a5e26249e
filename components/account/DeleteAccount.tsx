"use client";
import { useState } from "react";
import { deleteAccountAction } from "@/app/(app)/account/actions";
import { submitWith } from "@/components/ui/forms";
import { Button } from "../ui/Button";

const INPUT =
  "h-7 w-full rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950";

/** Deletes the account and everything in it, confirmed with the password (or, without one, the email). */
export function DeleteAccount({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  async function remove(form: HTMLFormElement) {
    setWorking(true);
    setError(null);
    const result = await deleteAccountAction({ confirmation: String(new FormData(form).get("confirmation") ?? "") });
    if (result.ok) {
      // A full load: nothing of the deleted account may stay in memory.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign("/sign-in");
      return;
    }
    setWorking(false);
    setError(result.error.message);
  }

  return (
    <section className="space-y-3 rounded-lg border border-red-200 p-4 dark:border-red-900" data-testid="delete-account">
      <div>
        <h2 className="text-[13.5px] font-semibold">Delete account</h2>
        <p className="text-[12px] text-neutral-500">
          Deletes this account and all its conversations, messages, summaries, settings and API tokens. This cannot be undone; export what you
          want to keep first.
        </p>
      </div>
      {open ? (
        <form className="space-y-2" onSubmit={(event) => submitWith(() => remove(event.currentTarget))(event)}>
          <label className="block space-y-1 text-[12.5px] font-medium">
            <span>{hasPassword ? "Your password, to confirm" : `Type ${email} to confirm`}</span>
            <input
              name="confirmation"
              type={hasPassword ? "password" : "text"}
              required
              maxLength={256}
              autoComplete={hasPassword ? "current-password" : "off"}
              data-testid="delete-account-confirmation"
              className={INPUT}
            />
          </label>
          {error ? (
            <p role="alert" data-testid="delete-account-error" className="text-[12px] text-red-700 dark:text-red-400">
              {error}
            </p>
          ) : null}
          <div className="flex gap-2">
            <Button type="submit" variant="danger" disabled={working} data-testid="delete-account-submit">
              {working ? "Deleting…" : "Delete my account and data"}
            </Button>
            <Button onClick={() => setOpen(false)} disabled={working}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button variant="danger" onClick={() => setOpen(true)} data-testid="delete-account-open">
          Delete account…
        </Button>
      )}
    </section>
  );
}
