"use client";
import { useState } from "react";
import { revokeSessionAction } from "@/app/actions";
import { formatTime } from "@/components/format";
import type { SessionView } from "@/lib/views";
import { Button } from "../ui/Button";

/** A readable device from a user agent: the browser and system it names, else the raw text, shortened. */
function device(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = /(Edg|Firefox|Chrome|Safari)\/[\d.]+/.exec(userAgent)?.[1]?.replace("Edg", "Edge");
  const system = /(Windows|Mac OS X|Android|iPhone|iPad|Linux)/.exec(userAgent)?.[1]?.replace("Mac OS X", "macOS");
  return browser || system ? [browser, system].filter(Boolean).join(" on ") : userAgent.slice(0, 80);
}

/** Where this account is signed in; any other session can be ended here. */
export function SessionList({ initialSessions }: { initialSessions: SessionView[] }) {
  const [sessions, setSessions] = useState(initialSessions);
  const [error, setError] = useState<string | null>(null);

  async function revoke(id: string) {
    setError(null);
    const result = await revokeSessionAction(id);
    if (!result.ok) return setError(result.error.message);
    setSessions((current) => current.filter((session) => session.id !== id));
  }

  return (
    <section className="space-y-3 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800" data-testid="sessions">
      <div>
        <h2 className="text-[13.5px] font-semibold">Signed-in sessions</h2>
        <p className="text-[12px] text-neutral-500">Every browser signed in to this account. End any you do not recognise.</p>
      </div>
      {error ? (
        <p role="alert" className="text-[12px] text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <ul className="divide-y divide-neutral-100 dark:divide-neutral-800" data-testid="session-list">
        {sessions.map((session) => (
          <li key={session.id} className="flex items-center gap-3 py-2 text-[12.5px]" data-testid="session-row">
            <span className="min-w-0 flex-1 truncate font-medium" title={session.userAgent ?? undefined}>
              {device(session.userAgent)}
              {session.current ? <span className="ml-2 text-[11.5px] font-normal text-emerald-700 dark:text-emerald-400">this session</span> : null}
            </span>
            <span className="text-[11.5px] text-neutral-500">
              signed in {formatTime(session.createdAt)} · active {formatTime(session.lastActiveAt)}
            </span>
            {session.current ? null : (
              <Button size="xs" variant="danger" onClick={() => void revoke(session.id)} data-testid="session-revoke">
                End
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
