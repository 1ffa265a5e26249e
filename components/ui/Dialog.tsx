"use client";
// The frame every modal dialog of the chat shares: a native <dialog> (focus trap,
// Escape and the backdrop come with it), its title and a close button.
import { useId, type ReactNode, type RefObject, type SyntheticEvent } from "react";
import { CloseIcon } from "./icons";

type DialogProps = {
  dialogRef: RefObject<HTMLDialogElement | null>;
  title: ReactNode;
  testId: string;
  /** Its width class, written out in full so that Tailwind sees it (e.g. "w-[min(40rem,calc(100vw-2rem))]"). */
  width: string;
  children: ReactNode;
  onClose?: () => void;
  onCancel?: (event: SyntheticEvent<HTMLDialogElement>) => void;
  /** What the close button does; by default it closes the dialog. */
  onCloseButton?: () => void;
};

export function Dialog({ dialogRef, title, testId, width, children, onClose, onCancel, onCloseButton }: DialogProps) {
  const titleId = useId();
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      data-testid={testId}
      onClose={onClose}
      onCancel={onCancel}
      className={`m-auto ${width} rounded-xl border border-neutral-200 bg-white p-0 text-neutral-900 shadow-2xl backdrop:bg-neutral-950/40 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100`}
    >
      <div className="flex items-center justify-between border-b border-neutral-200 px-4 py-2.5 dark:border-neutral-800">
        <h2 id={titleId} className="text-[13.5px] font-semibold">
          {title}
        </h2>
        <button
          type="button"
          onClick={onCloseButton ?? (() => dialogRef.current?.close())}
          aria-label="Close"
          className="rounded p-1 text-neutral-500 hover:bg-neutral-100 dark:hover:bg-neutral-800"
        >
          <CloseIcon />
        </button>
      </div>
      {children}
    </dialog>
  );
}
