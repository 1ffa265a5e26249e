// One colour per compaction level, so nested rails read as layers.
const LEVEL_STYLES = [
  { rail: "border-sky-400 dark:border-sky-500/70", badge: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300" },
  { rail: "border-violet-400 dark:border-violet-500/70", badge: "bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300" },
  { rail: "border-amber-400 dark:border-amber-500/70", badge: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300" },
  { rail: "border-emerald-400 dark:border-emerald-500/70", badge: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300" },
  { rail: "border-rose-400 dark:border-rose-500/70", badge: "bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300" },
] as const;

export function levelStyle(level: number) {
  return LEVEL_STYLES[(Math.max(1, level) - 1) % LEVEL_STYLES.length]!;
}
