import { ResetPasswordForm } from "@/components/account/ResetPasswordForm";

export const dynamic = "force-dynamic";

/** Where an admin's reset link leads: a new password for the account, without signing in. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  return (
    <>
      <h1 className="mb-4 text-lg font-semibold tracking-tight">Set a new password</h1>
      {typeof token === "string" && token.length > 0 && token.length <= 256 ? (
        <ResetPasswordForm token={token} />
      ) : (
        <p role="alert" className="text-[12.5px] text-red-700 dark:text-red-400">
          This link is incomplete. Ask the admin for a new one, and copy all of it.
        </p>
      )}
    </>
  );
}
