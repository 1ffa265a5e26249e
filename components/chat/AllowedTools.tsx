"use client";
import { useEffect, useState } from "react";
import { disallowToolAction } from "@/app/actions";
import { fetchRead } from "../queries/fetch-read";
import type { AllowedTool } from "@/lib/db/tool-allowances";
import { Button } from "../ui/Button";

/**
 * The tools that run without asking in this conversation ("Always allow" on an approval
 * prompt), each with a way to be asked again. Loads each time the settings open (`openedAt`).
 */
export function AllowedTools({ conversationId, openedAt }: { conversationId: string; openedAt: number }) {
  const [tools, setTools] = useState<AllowedTool[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (openedAt === 0) return;
    let current = true;
    void fetchRead("allowedTools", conversationId).then((result) => {
      if (!current) return;
      if (result.ok) {
        setTools(result.data);
        setProblem(null);
      } else setProblem(result.error.message);
    });
    return () => {
      current = false;
    };
  }, [conversationId, openedAt]);

  async function remove(tool: AllowedTool) {
    const result = await disallowToolAction({ conversationId, ...tool });
    if (!result.ok) return setProblem(`Not changed: ${result.error.message}`);
    setProblem(null);
    setTools((list) => list?.filter((one) => one.server !== tool.server || one.toolName !== tool.toolName) ?? null);
  }

  return (
    <section aria-labelledby="allowed-tools-title" data-testid="allowed-tools" className="space-y-1.5 border-t border-neutral-200 px-4 py-3 dark:border-neutral-800">
      <h3 id="allowed-tools-title" className="text-[12.5px] font-medium">
        Tools that run without asking here
      </h3>
      {problem ? (
        <p role="alert" className="text-[12px] text-red-700 dark:text-red-400">
          {problem}
        </p>
      ) : null}
      {tools === null ? null : tools.length === 0 ? (
        <p className="text-[12px] text-neutral-500">None: every tool that needs approval asks first.</p>
      ) : (
        <ul className="space-y-1">
          {tools.map((tool) => (
            <li key={`${tool.server}\u0000${tool.toolName}`} data-testid="allowed-tool" className="flex items-center gap-2 text-[12.5px]">
              <span className="min-w-0 flex-1 truncate">
                <span className="font-mono">{tool.toolName}</span>
                {tool.server ? <span className="text-neutral-500"> on {tool.server}</span> : null}
              </span>
              <Button size="xs" onClick={() => void remove(tool)} aria-label={`Ask again before ${tool.toolName} runs`}>
                Ask again
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
