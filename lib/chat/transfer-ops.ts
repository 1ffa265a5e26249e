// Moving a conversation's content elsewhere: export, import, and a new conversation
// continued from a summary.
import { z } from "zod";
import { getDb } from "../db/client";
import { exportConversation as exportDocument, exportMarkdown } from "../db/export";
import { importConversation as importDocument } from "../db/import";
import { createFromSummary, loadSummarySource, type SummarySource } from "../db/from-summary";
import { assertStorableText } from "../errors";
import { fromSummaryInput, idSchema } from "./inputs";
import { countMessageTokensAsync } from "../llm/token-pool";
import { type Actor, parse } from "./actor";

export const exportFormatSchema = z.enum(["json", "markdown"], { message: 'Choose format "json" or "markdown".' });

/** One owned conversation as a downloadable file: the JSON export or its Markdown rendering. */
export async function exportConversation(
  actor: Actor,
  input: unknown,
): Promise<{ filename: string; contentType: string; body: string }> {
  const { conversationId, format } = parse(z.object({ conversationId: idSchema, format: exportFormatSchema.default("json") }), input);
  const doc = await exportDocument(await getDb(), actor.id, conversationId);
  const base = doc.conversation.title.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "").slice(0, 60) || "conversation";
  return format === "json"
    ? { filename: `${base}.strata.json`, contentType: "application/json; charset=utf-8", body: JSON.stringify(doc, null, 2) }
    : { filename: `${base}.md`, contentType: "text/markdown; charset=utf-8", body: await exportMarkdown(doc) };
}

/**
 * A JSON export already in memory, stored as a new conversation of the actor (one
 * transaction), for scripts and tests; uploads go through ./imports.ts, which streams them.
 */
export async function importConversation(actor: Actor, input: unknown) {
  // Checked before it is serialized: JSON.stringify recurses, and a deep value would exhaust the stack.
  assertStorableText(input, "The file cannot be imported: ");
  return importDocument(await getDb(), actor.id, [new TextEncoder().encode(JSON.stringify(input))]);
}

/**
 * The first message of a conversation continued from a summary: the model reads it as
 * the context carried over (a pinned system message, shown and exported like any other),
 * and its header says where it came from.
 */
export function carriedOverText(source: Pick<SummarySource, "title" | "kind" | "level" | "fromSeq" | "toSeq" | "summary">): string {
  const what = source.kind === "truncation" ? "Note on" : `Summary (level ${source.level}) of`;
  return `Continued from the conversation “${source.title}”. ${what} its messages ${source.fromSeq}–${source.toSeq}:\n\n${source.summary}`;
}

const PINNED_ROLE_LABELS: Record<string, string> = { user: "User", assistant: "Assistant", tool: "Tool result", system: "System" };

/** The originals pinned inside the summary's range, verbatim, as one message that stays pinned; null when none were. */
export function carriedPinnedText(source: Pick<SummarySource, "title" | "pinned">): string | null {
  if (source.pinned.length === 0) return null;
  const entries = source.pinned.map((m) => `[${PINNED_ROLE_LABELS[m.role] ?? m.role} #${m.seq}]\n${m.content}`);
  return `Messages pinned in “${source.title}”, carried over verbatim:\n\n${entries.join("\n\n")}`;
}

/** "New conversation from this summary": same model, system prompt and overrides; the summary as its first context, pinned originals beside it. */
export async function conversationFromSummary(actor: Actor, input: unknown) {
  const { compactionId } = parse(fromSummaryInput, input);
  const db = await getDb();
  const source = await loadSummarySource(db, actor.id, compactionId);
  const content = carriedOverText(source);
  const pinned = carriedPinnedText(source);
  return createFromSummary(
    db,
    actor.id,
    source,
    { title: `From: ${source.title}`.slice(0, 200), content, tokenCount: await countMessageTokensAsync({ role: "system", content }) },
    pinned ? { content: pinned, tokenCount: await countMessageTokensAsync({ role: "system", content: pinned }) } : null,
  );
}
