import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/current-user";
import { signupState } from "@/lib/chat/operations";
import { AuthForm } from "@/components/auth/AuthForm";

export const dynamic = "force-dynamic";

export default async function SignInPage() {
  if (await currentUser()) redirect("/");
  // A fresh install has nobody to sign in: the newcomer's one form is the sign-up.
  const { first, allowed, providers } = await signupState();
  if (first && allowed) redirect("/sign-up");
  return (
    <>
      <h1 className="mb-4 text-lg font-semibold tracking-tight">Sign in</h1>
      <AuthForm mode="sign-in" providers={providers} />
    </>
  );
}
