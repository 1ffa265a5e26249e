"use client";
import { useState } from "react";
import { authRequest } from "@/components/auth/requests";
import { Button } from "../ui/Button";

/** Ends the session on the server, then reloads so no signed-in state stays in memory. */
export function SignOutButton() {
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  return (
    <div className="flex items-center gap-2">
      {error ? (
        <span role="alert" className="text-[12px] text-red-700 dark:text-red-400">
          {error}
        </span>
      ) : null}
      <Button
        data-testid="sign-out"
        disabled={working}
        onClick={async () => {
          setWorking(true);
          const outcome = await authRequest("/sign-out");
          // A full load, so that no conversation of this session stays in the page's memory.
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination
          if (outcome.ok) window.location.assign("/sign-in");
          else {
            setWorking(false);
            setError(outcome.message);
          }
        }}
      >
        Sign out
      </Button>
    </div>
  );
}
