// compress_context as a source: the chat model's own way to compress, run against the
// conversation (the engine defines the tool and stores the summary it writes).
import { COMPRESS_CONTEXT_TOOL, providedSummaryOf } from "../../compression/tools";
import { compressionManager, compactUnderLock } from "../compressor";
import type { ToolSource, TurnTool } from "./types";

const compressContextTool: TurnTool = {
  definition: COMPRESS_CONTEXT_TOOL,
  async run(call, { userId, conversationId, settings }) {
    const summary = providedSummaryOf(call.arguments);
    if (summary === null) {
      return { outcome: "failed", content: 'Error: the arguments of compress_context must be JSON of the form {"summary": "<text>"}.' };
    }
    const applied = await compactUnderLock(userId, conversationId, settings, (transcript) =>
      compressionManager().applyProvided(transcript, { summary, trigger: "tool" }, settings),
    );
    const created = applied.compactions[0];
    if (!created) {
      const reason = applied.attempts[0]?.reason ?? "nothing to compress";
      return { outcome: "failed", content: `compress_context did not change the context: ${reason}` };
    }
    return {
      outcome: "done",
      content: `Context compressed: ${created.coveredMessageCount} messages (${created.coveredTokens} tokens) replaced by your summary (${created.summaryTokens} tokens).`,
    };
  },
};

export const compressContextSource: ToolSource = () => [compressContextTool];
