import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { accountCost, accountHasPassword, listSessions, listTokens } from "@/lib/chat/operations";
import { requirePageUser } from "@/lib/auth/current-user";
import { SignOutButton } from "@/components/auth/SignOutButton";
import { TokenManager } from "@/components/account/TokenManager";
import { SessionList } from "@/components/account/SessionList";
import { PasswordChange } from "@/components/account/PasswordChange";
import { AccountCost } from "@/components/account/AccountCost";
import { ProfileForm } from "@/components/account/ProfileForm";
import { DeleteAccount } from "@/components/account/DeleteAccount";

export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const user = await requirePageUser();
  const requestHeaders = await headers();
  // Tokens and sessions are the browser session's business (as for their actions): not shown to an API token.
  if (requestHeaders.has("authorization")) redirect("/sign-in");
  const [tokens, sessions, cost, hasPassword] = await Promise.all([
    listTokens(user),
    listSessions(user, requestHeaders),
    accountCost(user),
    accountHasPassword(user),
  ]);
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <header className="sticky top-0 z-10 flex h-12 items-center gap-3 border-b border-neutral-200 bg-white/90 px-6 backdrop-blur dark:border-neutral-800 dark:bg-neutral-950/90">
        <h1 className="text-[13.5px] font-semibold">Account</h1>
      </header>
      <div className="mx-auto max-w-3xl space-y-6 px-6 py-6">
        <section className="flex items-center gap-3 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
          <div className="min-w-0 flex-1">
            <p className="truncate text-[13.5px] font-medium" data-testid="account-email">
              {user.email}
            </p>
            <p className="text-[12px] text-neutral-500" data-testid="account-role">
              {user.role === "admin" ? "Admin of this Strata" : "User"}
            </p>
          </div>
          <SignOutButton />
        </section>
        <AccountCost cost={cost} />
        <TokenManager initialTokens={tokens} />
        <SessionList initialSessions={sessions} />
        <ProfileForm name={user.name} email={user.email} hasPassword={hasPassword} />
        <PasswordChange email={user.email} />
        <DeleteAccount email={user.email} hasPassword={hasPassword} />
      </div>
    </div>
  );
}
