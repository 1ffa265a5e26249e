import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/current-user";
import { signupState } from "@/lib/chat/operations";
import { AuthForm } from "@/components/auth/AuthForm";
import { safeNextPath } from "@/lib/auth/next-path";

export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  // Back to the page that sent the visitor here; only a path of this site (never another origin).
  const next = safeNextPath((await searchParams).next) ?? "/";
  if (await currentUser()) redirect(next);
  // A fresh install has nobody to sign in: the newcomer's one form is the sign-up.
  const { first, allowed, providers } = await signupState();
  if (first && allowed) redirect("/sign-up");
  return (
    <>
      <h1 className="mb-4 text-lg font-semibold tracking-tight">Sign in</h1>
      <AuthForm mode="sign-in" providers={providers} next={next} signupsOpen={allowed} />
    </>
  );
}
