export function DemoBadge() {
  return (
    <span
      data-testid="demo-badge"
      title="No API key is configured: replies come from Strata's built-in offline demo model."
      className="rounded border border-amber-300 bg-amber-50 px-1.5 py-px text-[10.5px] font-semibold tracking-wide text-amber-800 uppercase dark:border-amber-700/60 dark:bg-amber-950/60 dark:text-amber-300"
    >
      demo
    </span>
  );
}
