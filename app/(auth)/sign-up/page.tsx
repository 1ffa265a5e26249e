import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/current-user";
import { signupState } from "@/lib/chat/operations";
import { AuthForm } from "@/components/auth/AuthForm";

export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await currentUser()) redirect("/");
  const { allowed, first, providers } = await signupState();
  return (
    <>
      <h1 className="mb-2 text-lg font-semibold tracking-tight">Create an account</h1>
      {first ? (
        <p className="mb-4 text-[12.5px] text-neutral-600 dark:text-neutral-400" data-testid="first-account-note">
          This is the first account here: it becomes the admin{" "}
          and receives any conversations this Strata held before accounts existed.
        </p>
      ) : null}
      {allowed ? (
        <AuthForm mode="sign-up" providers={providers} />
      ) : (
        <p role="status" data-testid="signups-closed" className="text-[13px] text-neutral-600 dark:text-neutral-400">
          Sign-ups are closed here. Ask the admin for an account, then <a className="font-medium text-sky-700 hover:underline dark:text-sky-400" href="/sign-in">sign in</a>.
        </p>
      )}
    </>
  );
}
