import type { FormEvent } from "react";

/** A form's onSubmit that stays on the page and runs `action` (its promise handles its own errors). */
export function submitWith(action: () => unknown): (event: FormEvent<HTMLFormElement>) => void {
  return (event) => {
    event.preventDefault();
    void action();
  };
}
