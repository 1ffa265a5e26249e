import type { MessageView } from "@/lib/views";

/** A tool's result, collapsed to one line until opened. */
export function ToolResult({ message }: { message: Extract<MessageView, { role: "tool" }> }) {
  const preview = message.content.replace(/\s+/g, " ").trim();
  return (
    <details data-testid="tool-result" className="group/result text-[12px]">
      <summary className="cursor-pointer list-none truncate font-mono text-neutral-600 marker:hidden hover:text-neutral-900 dark:text-neutral-400 dark:hover:text-neutral-100">
        <span className="mr-1 inline-block transition-transform group-open/result:rotate-90">›</span>
        {message.toolName ?? "tool"} result: <span className="text-neutral-500">{preview.length > 90 ? `${preview.slice(0, 87)}…` : preview}</span>
      </summary>
      <pre className="mt-1.5 max-h-72 overflow-auto rounded-md border border-neutral-200 bg-neutral-50 p-2 font-mono text-[12px] whitespace-pre-wrap dark:border-neutral-800 dark:bg-neutral-900">
        {message.content}
      </pre>
    </details>
  );
}
