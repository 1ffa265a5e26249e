// The sidebar's date groups, in the browser's time zone: a conversation belongs to the
// day of its last activity (updatedAt) as the person reading the list counts days.

const DAY_MS = 86_400_000;

/** Midnight of the local day holding `date`, as a day number (days since the epoch in local time). */
function localDay(date: Date): number {
  return Math.round(new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime() / DAY_MS);
}

/** The group of one conversation: Today, Yesterday, Previous 7 days, Previous 30 days, then its month. */
export function dateGroupLabel(updatedAt: Date, now: Date, locale?: string): string {
  const days = localDay(now) - localDay(updatedAt);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days <= 7) return "Previous 7 days";
  if (days <= 30) return "Previous 30 days";
  const sameYear = updatedAt.getFullYear() === now.getFullYear();
  return updatedAt.toLocaleDateString(locale, { month: "long", ...(sameYear ? {} : { year: "numeric" }) });
}

/** Consecutive runs of one label, in the list's order (newest first), so each header appears once. */
export function groupByDate<T extends { updatedAt: string }>(items: T[], now: Date, locale?: string): { label: string; items: T[] }[] {
  const groups: { label: string; items: T[] }[] = [];
  for (const item of items) {
    const label = dateGroupLabel(new Date(item.updatedAt), now, locale);
    const last = groups.at(-1);
    if (last && last.label === label) last.items.push(item);
    else groups.push({ label, items: [item] });
  }
  return groups;
}
