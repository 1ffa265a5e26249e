"use client";
// A page behind the sign-in failed to load. Production builds hide the server's error
// text, so the server is asked whether the database is the cause, in words.
import { useEffect, useState } from "react";
import { databaseProblemAction } from "@/app/health-actions";
import { AppErrorState } from "@/components/ui/AppErrorState";

export default function AppError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const [problem, setProblem] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    databaseProblemAction().then(setProblem, () => setProblem("The server does not answer."));
  }, []);
  return (
    <AppErrorState
      title={problem ? "The database is unavailable" : "This page could not be loaded"}
      cause={problem ?? (problem === null ? "The server failed while loading it. It may work on a second try." : "Checking what went wrong…")}
      onRetry={reset}
    />
  );
}
