"use client";
// The admin's list of accounts: searchable, one page at a time, with each user's usage
// and the actions on them. Every action reloads the page it was taken on, so what is
// shown is what the server has.
import { useState } from "react";
import { createResetLinkAction, listUsersAction, setUserDisabledAction, setUserRoleAction } from "@/app/(app)/admin/user-actions";
import { costLabel, formatCount, formatTime, plural } from "@/components/format";
import { submitWith } from "@/components/ui/forms";
import type { UserListPage, UserListRow } from "@/lib/chat/admin-user-ops";
import type { ActionResult } from "@/lib/errors";
import { Button } from "../ui/Button";
import { UserResetLink, type ShownResetLink } from "./UsersResetLink";

type RowProps = {
  user: UserListRow;
  self: boolean;
  busy: boolean;
  act: (work: () => Promise<ActionResult<unknown>>) => void;
  onResetLink: () => void;
};

function UserRow({ user, self, busy, act, onResetLink }: RowProps) {
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center" data-testid="user-row" data-email={user.email} data-disabled={user.disabled} data-role={user.role}>
      <div className="min-w-0 flex-1">
        <p className="truncate text-[13px] font-medium">
          {user.name}
          {user.role === "admin" ? <span className="ml-2 rounded bg-sky-100 px-1.5 text-[11px] font-normal text-sky-800 dark:bg-sky-950 dark:text-sky-300">admin</span> : null}
          {user.disabled ? (
            <span className="ml-2 rounded bg-red-100 px-1.5 text-[11px] font-normal text-red-800 dark:bg-red-950 dark:text-red-300" data-testid="user-disabled">
              disabled
            </span>
          ) : null}
          {self ? <span className="ml-2 text-[11px] font-normal text-neutral-500">you</span> : null}
        </p>
        <p className="truncate text-[12px] text-neutral-600 dark:text-neutral-400">{user.email}</p>
        <p className="text-[11.5px] text-neutral-500">
          joined {formatTime(user.createdAt)} · {user.lastActiveAt ? `active ${formatTime(user.lastActiveAt)}` : "never active"}
        </p>
        <p className="text-[11.5px] text-neutral-500" data-testid="user-usage" data-conversations={user.conversations} data-messages={user.messages}>
          {plural(user.conversations, "conversation")} · {plural(user.messages, "message")} · {formatCount(user.usage.promptTokens)} in ·{" "}
          {formatCount(user.usage.completionTokens)} out · {costLabel(user.usage)}
        </p>
      </div>
      <div className="flex flex-wrap gap-1.5">
        {self ? null : (
          <Button
            size="xs"
            variant={user.disabled ? "secondary" : "danger"}
            disabled={busy}
            onClick={() => act(() => setUserDisabledAction({ userId: user.id, disabled: !user.disabled }))}
            data-testid="user-toggle-disabled"
            aria-label={`${user.disabled ? "Enable" : "Disable"} ${user.email}`}
          >
            {user.disabled ? "Enable" : "Disable"}
          </Button>
        )}
        <Button
          size="xs"
          disabled={busy}
          onClick={() => act(() => setUserRoleAction({ userId: user.id, role: user.role === "admin" ? "user" : "admin" }))}
          data-testid="user-toggle-role"
          aria-label={user.role === "admin" ? `Make ${user.email} a user` : `Make ${user.email} an admin`}
        >
          {user.role === "admin" ? "Make user" : "Make admin"}
        </Button>
        <Button size="xs" onClick={onResetLink} data-testid="user-reset-link" aria-label={`Password reset link for ${user.email}`}>
          Reset link
        </Button>
      </div>
    </li>
  );
}

export function UsersAdmin({ initialPage, selfId }: { initialPage: UserListPage; selfId: string }) {
  const [list, setList] = useState(initialPage);
  const [query, setQuery] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resetLink, setResetLink] = useState<ShownResetLink | null>(null);
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));

  async function load(page: number, search = query) {
    const result = await listUsersAction({ page, query: search });
    if (!result.ok) return setError(result.error.message);
    setList(result.data);
  }

  function act(work: () => Promise<ActionResult<unknown>>) {
    setBusy(true);
    setError(null);
    void work().then(async (result) => {
      if (!result.ok) setError(result.error.message);
      await load(list.page);
      setBusy(false);
    });
  }

  async function makeResetLink(user: UserListRow) {
    setError(null);
    const result = await createResetLinkAction(user.id);
    if (!result.ok) return setError(result.error.message);
    setResetLink({ email: user.email, url: `${window.location.origin}${result.data.path}`, expiresAt: result.data.expiresAt });
  }

  return (
    <section className="space-y-3 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800" data-testid="users-admin">
      <div>
        <h2 className="text-[13.5px] font-semibold">Users</h2>
        <p className="text-[12px] text-neutral-500">
          {plural(list.total, "account")}. Disabling signs a user out at once and refuses their API tokens. Usage is what their conversations cost.
        </p>
      </div>
      <form role="search" className="flex gap-2" onSubmit={submitWith(() => load(1))}>
        <input
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          maxLength={254}
          placeholder="Name or email"
          aria-label="Search users by name or email"
          data-testid="users-search"
          className="h-7 min-w-0 flex-1 rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950"
        />
        <Button type="submit">Search</Button>
      </form>
      {error ? (
        <p role="alert" data-testid="users-error" className="text-[12px] text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      {resetLink ? <UserResetLink link={resetLink} onClose={() => setResetLink(null)} /> : null}
      <ul className="divide-y divide-neutral-100 dark:divide-neutral-800" data-testid="user-list">
        {list.users.map((user) => (
          <UserRow key={user.id} user={user} self={user.id === selfId} busy={busy} act={act} onResetLink={() => void makeResetLink(user)} />
        ))}
      </ul>
      {list.users.length === 0 ? <p className="text-[12.5px] text-neutral-500">No account matches.</p> : null}
      <nav aria-label="User pages" className="flex items-center justify-between text-[12px]">
        <Button size="xs" disabled={list.page <= 1} onClick={() => void load(list.page - 1)} data-testid="users-previous">
          Previous
        </Button>
        <span data-testid="users-page">
          Page {list.page} of {pages}
        </span>
        <Button size="xs" disabled={list.page >= pages} onClick={() => void load(list.page + 1)} data-testid="users-next">
          Next
        </Button>
      </nav>
    </section>
  );
}
