"use client";
// The one app-level error state: what is wrong in words, that nothing is lost, and a
// retry. Used when the database is unavailable and by the error boundaries.
import { useRouter } from "next/navigation";
import { useTransition } from "react";

export function AppErrorState({
  title,
  cause,
  onRetry,
}: {
  title: string;
  cause: string;
  /** Besides reloading the page's data (an error boundary's reset). */
  onRetry?: () => void;
}) {
  const router = useRouter();
  const [retrying, startRetry] = useTransition();
  return (
    <main className="flex flex-1 items-center justify-center p-8" data-testid="app-error" role="alert">
      <div className="max-w-md text-center">
        <h1 className="text-lg font-semibold tracking-tight">{title}</h1>
        <p data-testid="app-error-cause" className="mt-2 text-[13px] text-neutral-700 dark:text-neutral-300">
          {cause}
        </p>
        <p className="mt-2 text-[12.5px] text-neutral-500">
          Your conversations are not lost: they are stored in the database and will be back as soon as it answers.
        </p>
        <button
          type="button"
          data-testid="app-error-retry"
          disabled={retrying}
          onClick={() =>
            startRetry(() => {
              onRetry?.();
              router.refresh();
            })
          }
          className="mt-4 rounded-md bg-sky-600 px-3 py-1.5 text-[13px] font-medium text-white hover:bg-sky-700 disabled:opacity-60"
        >
          {retrying ? "Retrying…" : "Try again"}
        </button>
      </div>
    </main>
  );
}
