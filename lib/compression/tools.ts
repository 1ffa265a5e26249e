import { z } from "zod";

/**
 * The chat model's own way to compress (kept next to the automatic path: a model that
 * knows its task can pick a better cut): it writes the summary, applyProvided stores it with trigger "tool".
 */
export const COMPRESS_CONTEXT_TOOL = {
  type: "function",
  function: {
    name: "compress_context",
    description:
      "Replace the older part of this conversation in your context with your own summary, to free context space. " +
      "Call it with a summary of the conversation so far: the user's goals, decisions made, work completed and open items. " +
      'Keep identifiers, file paths, numbers and names exactly, and copy every line starting with the word FACT verbatim. ' +
      "The most recent messages stay as they are; the originals remain stored and visible to the user.",
    parameters: {
      type: "object",
      properties: {
        summary: {
          type: "string",
          description: "Your summary of the conversation so far, replacing the older messages in your context.",
        },
      },
      required: ["summary"],
      additionalProperties: false,
    },
  },
} as const;

const compressContextArguments = z.object({ summary: z.string() });

/**
 * The summary in a compress_context call's arguments, or null when they are not JSON
 * of the tool's shape (a model's malformed call is answered, never thrown).
 */
export function providedSummaryOf(argumentsText: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(argumentsText || "{}");
  } catch {
    return null;
  }
  const parsed = compressContextArguments.safeParse(json);
  return parsed.success ? parsed.data.summary : null;
}
