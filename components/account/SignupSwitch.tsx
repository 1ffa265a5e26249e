"use client";
import { useState } from "react";
import { setSignupsOpenAction } from "@/app/actions";

/** The admin's switch for self-service sign-ups (the environment can close them for good). */
export function SignupSwitch({ initialOpen, closedByEnvironment }: { initialOpen: boolean; closedByEnvironment: boolean }) {
  const [open, setOpen] = useState(initialOpen);
  const [error, setError] = useState<string | null>(null);
  // The box flips at once, but the change holds only once the server has it: say which.
  const [saving, setSaving] = useState<"idle" | "saving" | "saved">("idle");
  return (
    <section className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
      <label className="flex items-center gap-3 text-[13px]">
        <input
          type="checkbox"
          checked={open && !closedByEnvironment}
          disabled={closedByEnvironment || saving === "saving"}
          data-testid="signups-open"
          className="size-4 accent-neutral-900 dark:accent-neutral-100"
          onChange={async (event) => {
            const next = event.target.checked;
            setError(null);
            setOpen(next);
            setSaving("saving");
            const result = await setSignupsOpenAction(next);
            if (!result.ok) {
              setOpen(!next);
              setError(result.error.message);
              setSaving("idle");
              return;
            }
            setSaving("saved");
          }}
        />
        <span>
          <span className="font-medium">Anyone can create an account</span>
          <span className="block text-[12px] text-neutral-500">
            {closedByEnvironment
              ? "Closed by STRATA_SIGNUPS=closed. Create accounts with npm run strata -- user:create."
              : "Off: only accounts made with npm run strata -- user:create."}
          </span>
        </span>
      </label>
      <p role="status" data-testid="signups-saved" className="mt-2 text-[12px] text-neutral-500">
        {saving === "saving" ? "Saving…" : saving === "saved" ? "Saved." : ""}
      </p>
      {error ? (
        <p role="alert" className="mt-2 text-[12px] text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </section>
  );
}
