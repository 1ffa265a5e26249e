"use client";
import Link from "next/link";
import { useState } from "react";
import { authRequest, passwordRefusal, socialSignIn } from "@/components/auth/requests";
import { Button } from "../ui/Button";

const INPUT =
  "h-8 w-full rounded-md border border-neutral-300 bg-white px-2.5 text-[13px] dark:border-neutral-700 dark:bg-neutral-950";

/** The sign-in and sign-up form; on success a full load of `next` starts the app fresh for this user. */
export function AuthForm({
  mode,
  providers = [],
  next = "/",
  signupsOpen = true,
}: {
  mode: "sign-in" | "sign-up";
  providers?: string[];
  next?: string;
  /** Sign-in only: without open sign-ups the "Create an account" link leads to a closed door, so it is left out. */
  signupsOpen?: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const signUp = mode === "sign-up";

  async function submit(form: FormData) {
    setWorking(true);
    setError(null);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const name = String(form.get("name") ?? "").trim() || email.split("@")[0];
    const refusal = signUp ? await passwordRefusal(password, [email, name ?? ""]) : null;
    const outcome = refusal
      ? { ok: false as const, message: refusal }
      : signUp
        ? await authRequest("/sign-up/email", { email, password, name })
        : await authRequest("/sign-in/email", { email, password });
    if (outcome.ok) {
      // A full load, not a client navigation: nothing of a previous session may stay in memory.
      // `next` is a same-origin path (lib/auth/next-path.ts checked it on the server).
      window.location.assign(next);
      return;
    }
    setWorking(false);
    setError(outcome.message);
  }

  return (
    <form
      data-testid={`${mode}-form`}
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(new FormData(event.currentTarget));
      }}
    >
      {signUp ? (
        <label className="block space-y-1 text-[12.5px] font-medium">
          <span>
            Name <span className="font-normal text-neutral-500">(optional)</span>
          </span>
          <input name="name" autoComplete="name" maxLength={100} className={INPUT} />
        </label>
      ) : null}
      <label className="block space-y-1 text-[12.5px] font-medium">
        <span>Email</span>
        <input name="email" type="email" required maxLength={254} autoComplete="email" data-testid="auth-email" className={INPUT} />
      </label>
      <label className="block space-y-1 text-[12.5px] font-medium">
        <span>Password</span>
        <input
          name="password"
          type="password"
          required
          maxLength={128}
          autoComplete={signUp ? "new-password" : "current-password"}
          data-testid="auth-password"
          className={INPUT}
        />
      </label>
      {signUp ? <p className="text-[12px] text-neutral-500">At least 12 characters, not a common password: a few unrelated words work well.</p> : null}
      {error ? (
        <p role="alert" data-testid="auth-error" className="rounded-md bg-red-50 p-2 text-[12.5px] text-red-700 dark:bg-red-950/50 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="primary" className="w-full" disabled={working} data-testid="auth-submit">
        {working ? "One moment…" : signUp ? "Create account" : "Sign in"}
      </Button>
      {providers.map((provider) => (
        <Button
          key={provider}
          className="w-full capitalize"
          disabled={working}
          onClick={async () => {
            setWorking(true);
            const outcome = await socialSignIn(provider);
            if (!outcome.ok) {
              setWorking(false);
              setError(outcome.message);
            }
          }}
        >
          Continue with {provider}
        </Button>
      ))}
      <p className="text-center text-[12.5px] text-neutral-600 dark:text-neutral-400">
        {signUp ? (
          <>
            Have an account? <Link href="/sign-in" className="font-medium text-sky-700 hover:underline dark:text-sky-400">Sign in</Link>
          </>
        ) : signupsOpen ? (
          <>
            New here? <Link href="/sign-up" className="font-medium text-sky-700 hover:underline dark:text-sky-400">Create an account</Link>
          </>
        ) : (
          "No account yet? Ask the admin for one."
        )}
      </p>
    </form>
  );
}
