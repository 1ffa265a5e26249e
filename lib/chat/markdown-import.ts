// Markdown transcripts as new conversations: parsed by lib/db/markdown-import.ts, measured
// with the conversation model's tokenizer, stored by the ordinary importer (one transaction).
import type { Db } from "../db/client";
import { importConversation } from "../db/import";
import { parseMarkdownTranscript, transcriptAsExport } from "../db/markdown-import";
import { startingModel } from "../llm/client";
import { countTextTokens } from "../llm/tokens";
import type { ConversationView } from "../views";

export const MARKDOWN_DEFAULT_TITLE = "Imported transcript";

export async function importMarkdownTranscript(db: Db, userId: string, markdown: string): Promise<ConversationView> {
  const doc = transcriptAsExport(parseMarkdownTranscript(markdown), { model: await startingModel(), title: MARKDOWN_DEFAULT_TITLE }, countTextTokens);
  return importConversation(db, userId, [new TextEncoder().encode(JSON.stringify(doc))]);
}
