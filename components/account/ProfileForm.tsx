"use client";
import { useState } from "react";
import { updateProfileAction } from "@/app/(app)/account/actions";
import { submitWith } from "@/components/ui/forms";
import { Button } from "../ui/Button";

const INPUT =
  "h-7 w-full rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950";

/** Name and email. A new email asks for the current password (an account without one cannot change it here). */
export function ProfileForm({ name, email, hasPassword }: { name: string; email: string; hasPassword: boolean }) {
  const [saved, setSaved] = useState({ name, email });
  const [draftEmail, setDraftEmail] = useState(email);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const emailChanges = draftEmail.trim().toLowerCase() !== saved.email.toLowerCase();

  async function save(form: HTMLFormElement) {
    const data = new FormData(form);
    setWorking(true);
    setError(null);
    setNotice(null);
    const result = await updateProfileAction({
      name: String(data.get("name") ?? ""),
      email: String(data.get("email") ?? ""),
      ...(emailChanges ? { currentPassword: String(data.get("currentPassword") ?? "") } : {}),
    });
    setWorking(false);
    if (!result.ok) return setError(result.error.message);
    setSaved(result.data);
    setDraftEmail(result.data.email);
    form.reset();
    setNotice("Saved.");
  }

  return (
    <section className="space-y-3 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800" data-testid="profile">
      <div>
        <h2 className="text-[13.5px] font-semibold">Name and email</h2>
        <p className="text-[12px] text-neutral-500">You sign in with the email address. Changing it asks for your password.</p>
      </div>
      <form className="space-y-2" onSubmit={(event) => submitWith(() => save(event.currentTarget))(event)}>
        <label className="block space-y-1 text-[12.5px] font-medium">
          <span>Name</span>
          <input name="name" required maxLength={100} defaultValue={saved.name} key={`name-${saved.name}`} autoComplete="name" data-testid="profile-name" className={INPUT} />
        </label>
        <label className="block space-y-1 text-[12.5px] font-medium">
          <span>Email</span>
          <input
            name="email"
            type="email"
            required
            maxLength={254}
            value={draftEmail}
            onChange={(event) => setDraftEmail(event.target.value)}
            autoComplete="email"
            data-testid="profile-email"
            className={INPUT}
          />
        </label>
        {emailChanges && hasPassword ? (
          <label className="block space-y-1 text-[12.5px] font-medium">
            <span>Current password</span>
            <input name="currentPassword" type="password" required maxLength={256} autoComplete="current-password" data-testid="profile-password" className={INPUT} />
          </label>
        ) : null}
        {emailChanges && !hasPassword ? (
          <p className="text-[12px] text-neutral-500">This account signs in without a password, so its email address cannot be changed here.</p>
        ) : null}
        {error ? (
          <p role="alert" data-testid="profile-error" className="text-[12px] text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : null}
        {notice ? (
          <p role="status" data-testid="profile-saved" className="text-[12px] text-emerald-700 dark:text-emerald-400">
            {notice}
          </p>
        ) : null}
        <Button type="submit" variant="primary" disabled={working} data-testid="profile-submit">
          {working ? "One moment…" : "Save"}
        </Button>
      </form>
    </section>
  );
}
