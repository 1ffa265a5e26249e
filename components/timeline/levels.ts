// One colour per compaction level, so nested rails read as layers.
const LEVEL_STYLES = [
  { edge: "border-l-sky-400 dark:border-l-sky-500/70", rail: "border-sky-400 dark:border-sky-500/70", badge: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300" },
  { edge: "border-l-violet-400 dark:border-l-violet-500/70", rail: "border-violet-400 dark:border-violet-500/70", badge: "bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300" },
  { edge: "border-l-amber-400 dark:border-l-amber-500/70", rail: "border-amber-400 dark:border-amber-500/70", badge: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300" },
  { edge: "border-l-emerald-400 dark:border-l-emerald-500/70", rail: "border-emerald-400 dark:border-emerald-500/70", badge: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300" },
  { edge: "border-l-rose-400 dark:border-l-rose-500/70", rail: "border-rose-400 dark:border-rose-500/70", badge: "bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300" },
] as const;

export function levelStyle(level: number) {
  return LEVEL_STYLES[(Math.max(1, level) - 1) % LEVEL_STYLES.length]!;
}
