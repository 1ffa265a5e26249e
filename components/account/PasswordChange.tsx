"use client";
import { useState } from "react";
import { revokeAllTokensAction } from "@/app/actions";
import { authRequest, passwordRefusal } from "@/components/auth/requests";
import { Button } from "../ui/Button";

const INPUT =
  "h-7 w-full rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950";

/**
 * A new password through the auth library, which ends every other session (the server
 * insists); the API tokens too if asked. Reloads afterwards: the sessions and tokens
 * shown are then what is left.
 */
export function PasswordChange({ email }: { email: string }) {
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  async function change(form: FormData) {
    setWorking(true);
    setError(null);
    const newPassword = String(form.get("newPassword") ?? "");
    const refusal = await passwordRefusal(newPassword, [email]);
    const outcome = refusal
      ? { ok: false as const, message: refusal }
      : await authRequest("/change-password", { currentPassword: String(form.get("currentPassword") ?? ""), newPassword, revokeOtherSessions: true });
    if (outcome.ok && form.get("revokeTokens") === "on") {
      const revoked = await revokeAllTokensAction();
      if (!revoked.ok) {
        setWorking(false);
        return setError(`The password is changed, but the tokens are not revoked: ${revoked.error.message}`);
      }
    }
    if (outcome.ok) return window.location.reload();
    setWorking(false);
    setError(outcome.message);
  }

  return (
    <section className="space-y-3 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800" data-testid="password-change">
      <div>
        <h2 className="text-[13.5px] font-semibold">Password</h2>
        <p className="text-[12px] text-neutral-500">Changing it signs out every other session. At least 12 characters, not a common password.</p>
      </div>
      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          void change(new FormData(event.currentTarget));
        }}
      >
        <input name="currentPassword" type="password" required maxLength={128} autoComplete="current-password" placeholder="Current password" aria-label="Current password" data-testid="current-password" className={INPUT} />
        <input name="newPassword" type="password" required maxLength={128} autoComplete="new-password" placeholder="New password" aria-label="New password" data-testid="new-password" className={INPUT} />
        <label className="flex items-center gap-2 text-[12.5px]">
          <input type="checkbox" name="revokeTokens" data-testid="revoke-tokens" className="size-4 accent-neutral-900 dark:accent-neutral-100" />
          Also revoke all my API tokens
        </label>
        {error ? (
          <p role="alert" data-testid="password-error" className="text-[12px] text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : null}
        <Button type="submit" variant="primary" disabled={working} data-testid="password-submit">
          {working ? "One moment…" : "Change password"}
        </Button>
      </form>
    </section>
  );
}
