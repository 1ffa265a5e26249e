"use client";
// The first thing Tab reaches: straight to the message box (or the page's content),
// past the conversation list.
export function SkipLink() {
  return (
    <a
      href="#main"
      data-testid="skip-link"
      onClick={(event) => {
        const target = document.getElementById("composer") ?? document.getElementById("main");
        if (!target) return;
        event.preventDefault();
        target.focus();
      }}
      className="sr-only z-50 rounded-md bg-sky-600 px-3 py-1.5 text-[13px] font-medium text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      Skip to the message box (or the page). Shortcut: Shift+Esc
    </a>
  );
}
