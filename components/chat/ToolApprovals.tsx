"use client";
import { useChat, type PendingApproval } from "@/components/stores/chat-store";
import { Button } from "../ui/Button";
import { WrenchIcon } from "../ui/icons";

/** The arguments as the user should read them: indented when they are JSON, as written otherwise. */
function readableArguments(raw: string): string {
  const trimmed = raw.trim();
  if (!trimmed) return "(no arguments)";
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return trimmed;
  }
}

function deadline(expiresAt: string): string {
  return new Date(expiresAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

const ANSWERS = [
  { label: "Approve", approved: true, always: false, variant: "primary", testId: "approve-tool" },
  { label: "Always allow here", approved: true, always: true, variant: "secondary", testId: "always-allow-tool" },
  { label: "Deny", approved: false, always: false, variant: "secondary", testId: "deny-tool" },
] as const;

function ApprovalCard({ approval }: { approval: PendingApproval }) {
  const answer = useChat((state) => state.answerApproval);
  const titleId = `approval-${approval.callId}-title`;
  return (
    <div
      role="group"
      aria-labelledby={titleId}
      data-testid="tool-approval"
      data-call-id={approval.callId}
      className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 dark:border-amber-800 dark:bg-amber-950/50"
    >
      <p id={titleId} className="flex flex-wrap items-center gap-1.5 text-[13px] text-amber-950 dark:text-amber-100">
        <WrenchIcon className="size-3.5 shrink-0" />
        <span>
          Run <span className="font-mono font-semibold">{approval.toolName}</span>
          {approval.server ? (
            <>
              {" "}
              on <span className="font-medium">{approval.server}</span>
            </>
          ) : null}
          ?
        </span>
      </p>
      <pre
        aria-label="Arguments"
        className="mt-1.5 max-h-48 overflow-auto rounded-md border border-amber-200 bg-white p-2 font-mono text-[12px] whitespace-pre-wrap break-all text-neutral-800 dark:border-amber-900 dark:bg-neutral-900 dark:text-neutral-200"
      >
        {readableArguments(approval.arguments)}
      </pre>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        {ANSWERS.map(({ label, approved, always, variant, testId }) => (
          <Button
            key={label}
            variant={variant}
            data-testid={testId}
            disabled={approval.answering}
            onClick={() => void answer(approval.callId, approved, always)}
            {...(always ? { title: "Approve, and let this tool run without asking in this conversation (Settings lists it)" } : {})}
            className="h-11 flex-1 sm:h-7 sm:flex-none"
          >
            {label}
          </Button>
        ))}
        <span className="w-full text-[11.5px] text-amber-900/80 sm:w-auto dark:text-amber-200/80">
          Denied by itself at {deadline(approval.expiresAt)} without an answer. Stop denies it too.
        </span>
      </div>
    </div>
  );
}

/**
 * The tool calls the running turn waits on, above the composer: each with its tool,
 * server and arguments, and Approve / Deny. The turn goes on once every call of the
 * reply is answered.
 */
export function ToolApprovals() {
  const approvals = useChat((state) => state.approvals);
  if (approvals.length === 0) return null;
  return (
    <section aria-label="Tool calls waiting for your approval" data-testid="tool-approvals" className="space-y-2 px-4 pb-2">
      <p role="status" className="sr-only">
        {approvals.length === 1 ? `The model asks to run ${approvals[0]!.toolName}.` : `The model asks to run ${approvals.length} tool calls.`}
      </p>
      {approvals.map((approval) => (
        <ApprovalCard key={approval.callId} approval={approval} />
      ))}
    </section>
  );
}
