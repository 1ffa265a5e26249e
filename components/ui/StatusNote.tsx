import type { ReactNode } from "react";

/** A short live-region line (screen readers announce it); nothing when there is nothing to say. */
export function StatusNote({ testId, className, children }: { testId: string; className: string; children: ReactNode }) {
  if (!children) return null;
  return (
    <p data-testid={testId} role="status" className={className}>
      {children}
    </p>
  );
}
