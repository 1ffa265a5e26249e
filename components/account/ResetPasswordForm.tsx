"use client";
import Link from "next/link";
import { useState } from "react";
import { authRequest, passwordRefusal } from "@/components/auth/requests";
import { submitWith } from "@/components/ui/forms";
import { Button } from "../ui/Button";

const INPUT =
  "h-8 w-full rounded-md border border-neutral-300 bg-white px-2.5 text-[13px] dark:border-neutral-700 dark:bg-neutral-950";

/** Spends a reset link's token through the auth library: the password is set and every session of the account ends. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [working, setWorking] = useState(false);

  async function reset(form: HTMLFormElement) {
    setWorking(true);
    setError(null);
    const newPassword = String(new FormData(form).get("newPassword") ?? "");
    const refusal = await passwordRefusal(newPassword, []);
    const outcome = refusal ? { ok: false as const, message: refusal } : await authRequest("/reset-password", { token, newPassword });
    setWorking(false);
    if (outcome.ok) return setDone(true);
    setError(outcome.message);
  }

  if (done) {
    return (
      <p role="status" data-testid="reset-done" className="text-[13px]">
        Your password is set, and every session of your account is signed out.{" "}
        <Link href="/sign-in" className="font-medium text-sky-700 hover:underline dark:text-sky-400">
          Sign in
        </Link>
      </p>
    );
  }
  return (
    <form className="space-y-3" data-testid="reset-form" onSubmit={(event) => submitWith(() => reset(event.currentTarget))(event)}>
      <label className="block space-y-1 text-[12.5px] font-medium">
        <span>New password</span>
        <input name="newPassword" type="password" required maxLength={128} autoComplete="new-password" data-testid="reset-password" className={INPUT} />
      </label>
      <p className="text-[12px] text-neutral-500">At least 12 characters, not a common password: a few unrelated words work well.</p>
      {error ? (
        <p role="alert" data-testid="reset-error" className="rounded-md bg-red-50 p-2 text-[12.5px] text-red-700 dark:bg-red-950/50 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="primary" className="w-full" disabled={working} data-testid="reset-submit">
        {working ? "One moment…" : "Set password"}
      </Button>
    </form>
  );
}
