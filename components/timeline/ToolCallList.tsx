import type { ToolCall } from "@/lib/compression/types";
import { WrenchIcon } from "../ui/icons";

function compactArguments(raw: string): string {
  const trimmed = raw.trim();
  if (!trimmed || trimmed === "{}") return "";
  return trimmed.length > 80 ? `${trimmed.slice(0, 77)}…` : trimmed;
}

/** "called current_time()" — one line per tool call. */
export function ToolCallList({ calls }: { calls: ToolCall[] }) {
  return (
    <ul className="mt-1 space-y-0.5">
      {calls.map((call) => (
        <li key={call.id} data-testid="tool-call" className="flex items-center gap-1.5 font-mono text-[12px] text-neutral-600 dark:text-neutral-400">
          <WrenchIcon className="size-3 text-neutral-400" />
          called <span className="text-neutral-900 dark:text-neutral-100">{call.name}({compactArguments(call.arguments)})</span>
        </li>
      ))}
    </ul>
  );
}
