// Export of one owned conversation: the JSON document (./export-format.ts) and a
// Markdown rendering of it, where each summary is a collapsible <details> block holding
// what it replaced (lower summaries, then the original messages).
import type { Db } from "./client.ts";
import type { Compaction } from "./generated/client.ts";
import { ownedConversation } from "./conversations.ts";
import { readSettings } from "./settings.ts";
import { compactionColumns, toAttemptView, toolCallsOf } from "./mappers.ts";
import { readToolContent } from "../mcp/content";
import { notFound } from "../errors.ts";
import { OVERRIDABLE_SETTINGS, storedLayer } from "../settings-layers";
import { codeSpan, InertMarkdown, plainLine } from "./inert-markdown.ts";
import { EXPORT_FORMAT, EXPORT_VERSION, type ConversationExport, type ExportedAttachment, type ExportedCompaction, type ExportedMessage } from "./export-format.ts";

/** A stable order that does not depend on ids: level, range, then creation. */
function compactionOrder(a: Compaction, b: Compaction): number {
  return a.level - b.level || a.fromSeq - b.fromSeq || a.toSeq - b.toSeq || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);
}

export async function exportConversation(db: Db, userId: string, conversationId: string): Promise<ConversationExport> {
  const conversation = await db.conversation.findFirst({ where: ownedConversation(userId, conversationId) });
  if (!conversation) throw notFound("conversation", conversationId);
  const [messages, compactionRows, attempts, resolved, attachmentRows] = await Promise.all([
    db.message.findMany({ where: { conversationId }, orderBy: { seq: "asc" } }),
    db.compaction.findMany({ where: { conversationId } }),
    db.compactionAttempt.findMany({ where: { conversationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    readSettings(db, userId, conversationId),
    db.attachment.findMany({ where: { conversationId, userId, messageId: { not: null } }, orderBy: { position: "asc" } }),
  ]);
  const attachmentsOf = new Map<string, ExportedAttachment[]>();
  for (const row of attachmentRows) {
    const list = attachmentsOf.get(row.messageId!) ?? [];
    list.push({ name: row.name, mediaType: row.mediaType, data: Buffer.from(row.bytes).toString("base64"), text: row.text, tokenCount: row.tokenCount, contentStart: row.contentStart });
    attachmentsOf.set(row.messageId!, list);
  }
  const compactions = [...compactionRows].sort(compactionOrder);
  const refOf = new Map(compactions.map((row, index) => [row.id, index]));
  // Version links point at messages; the file names them by seq, like everything else.
  const seqOf = new Map(messages.map((row) => [row.id, row.seq]));
  const seqRef = (id: string | null) => (id != null ? (seqOf.get(id) ?? null) : null);
  const ref = (id: string | null) => (id != null ? (refOf.get(id) ?? null) : null);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    conversation: {
      title: conversation.title,
      model: conversation.model,
      systemPrompt: conversation.systemPrompt,
      temperature: conversation.temperature,
      createdAt: conversation.createdAt.toISOString(),
    },
    settings: {
      overrides: storedLayer(conversation.settingsOverrides, OVERRIDABLE_SETTINGS),
      effective: resolved.settings as unknown as Record<string, unknown>,
    },
    messages: messages.map((row) => {
      const toolCalls = toolCallsOf(row);
      return {
        seq: row.seq,
        role: row.role,
        content: row.content,
        toolCalls: row.toolCalls == null ? null : toolCalls,
        toolCallId: row.toolCallId,
        toolName: row.toolName,
        toolOutcome: row.toolOutcome,
        toolDurationMs: row.toolDurationMs,
        toolServer: row.toolServer,
        toolContent: readToolContent(row.toolContent),
        tokenCount: row.tokenCount,
        promptTokens: row.promptTokens,
        completionTokens: row.completionTokens,
        requestTokens: row.requestTokens,
        model: row.model,
        reasoning: row.reasoning,
        status: row.status,
        error: row.error,
        pinned: row.pinned,
        rewound: row.rewoundAt != null,
        versionOf: seqRef(row.versionOf),
        branchOf: seqRef(row.branchOf),
        createdAt: row.createdAt.toISOString(),
        attachments: attachmentsOf.get(row.id) ?? [],
      };
    }),
    compactions: compactions.map((row, index) => ({
      ref: index,
      ...compactionColumns(row),
      keptSeqs: row.keptSeqs,
      supersededBy: ref(row.supersededById),
      undone: row.undoneAt != null,
      createdAt: row.createdAt.toISOString(),
      undoneAt: row.undoneAt?.toISOString() ?? null,
      undoneByOwner: row.undoneBy != null,
    })),
    // The attempt as the activity panel shows it, with its compaction named by ref.
    attempts: attempts.map((row) => {
      const { id: _id, compactionId, ...attempt } = toAttemptView(row);
      return { ...attempt, compaction: ref(compactionId) };
    }),
  };
}

// ---- Markdown

const ROLE_TITLES: Record<ExportedMessage["role"], string> = { user: "You", assistant: "Assistant", tool: "Tool", system: "System" };

/**
 * The layout is written first with a placeholder for each text (prompt, message, summary),
 * and the texts are put in afterwards in document order: making one inert depends on
 * where the one before it ended (./inert-markdown.ts). Stored text never holds NUL.
 */
type Slot = (text: string) => string;
const PLACEHOLDER = /\u0000(\d+)\u0000/;

function messageMarkdown(message: ExportedMessage, slot: Slot): string {
  const calls = (message.toolCalls ?? []).map((call) => `\n\n> Tool call ${codeSpan(call.name)}: ${codeSpan(call.arguments)}`).join("");
  const pin = message.pinned ? " · pinned" : "";
  return `#### ${ROLE_TITLES[message.role]} · #${message.seq}${pin}\n\n${slot(message.content)}${calls}`;
}

/** What a compaction replaced, in order: its merged children and the messages they leave out. */
function compactionMarkdown(doc: ConversationExport, compaction: ExportedCompaction, slot: Slot): string {
  const children = doc.compactions.filter((c) => c.supersededBy === compaction.ref && !c.undone);
  const inChild = (seq: number) => children.some((c) => c.fromSeq <= seq && seq <= c.toSeq);
  const messages = doc.messages.filter((m) => !m.rewound && m.seq >= compaction.fromSeq && m.seq <= compaction.toSeq && !inChild(m.seq));
  const parts = [
    ...children.map((c) => ({ seq: c.fromSeq, text: compactionMarkdown(doc, c, slot) })),
    ...messages.map((m) => ({ seq: m.seq, text: messageMarkdown(m, slot) })),
  ].sort((a, b) => a.seq - b.seq);
  const label = `L${compaction.level} ${compaction.kind} of messages ${compaction.fromSeq}–${compaction.toSeq}`;
  return [
    `<details>`,
    `<summary>${label} (${compaction.coveredMessageCount} messages, ${compaction.coveredTokens} → ${compaction.summaryTokens} tokens)</summary>`,
    "",
    slot(compaction.summary),
    "",
    `**Originals:**`,
    "",
    ...parts.map((part) => `${part.text}\n`),
    `</details>`,
  ].join("\n");
}

/**
 * The conversation as the user sees it, every summary opening onto what it replaced. HTML
 * in the title, prompt, messages and summaries comes out as text; the only HTML is the
 * export's own <details> blocks. Waits for other requests after each text it had to parse.
 */
export async function exportMarkdown(doc: ConversationExport): Promise<string> {
  const texts: string[] = [];
  const slot: Slot = (text) => `\u0000${texts.push(text) - 1}\u0000`;
  const top = doc.compactions.filter((c) => c.supersededBy == null && !c.undone);
  const inTop = (seq: number) => top.some((c) => c.fromSeq <= seq && seq <= c.toSeq && !c.keptSeqs.includes(seq));
  const parts = [
    ...top.map((c) => ({ seq: c.fromSeq, text: compactionMarkdown(doc, c, slot) })),
    ...doc.messages.filter((m) => !m.rewound && !inTop(m.seq)).map((m) => ({ seq: m.seq, text: messageMarkdown(m, slot) })),
  ].sort((a, b) => a.seq - b.seq);
  const header = [
    `# ${plainLine(doc.conversation.title)}`,
    "",
    `Model ${codeSpan(doc.conversation.model)} · started ${doc.conversation.createdAt} · exported ${doc.exportedAt} from Strata${doc.conversation.temperature === null ? "" : ` · temperature ${doc.conversation.temperature}`}`,
    ...(doc.conversation.systemPrompt ? ["", "## System prompt", "", slot(doc.conversation.systemPrompt)] : []),
    "",
    "## Conversation",
  ];
  const layout = [...header, "", ...parts.map((part) => `${part.text}\n`)].join("\n");
  // split() with the placeholder's group: layout, text index, layout, text index, …
  const pieces = layout.split(PLACEHOLDER);
  const inert = new InertMarkdown();
  let markdown = "";
  for (let index = 0; index < pieces.length; index++) {
    if (index % 2 === 0) {
      markdown += pieces[index];
      continue;
    }
    markdown += inert.text(texts[Number(pieces[index])]!);
    if (inert.parsed) await new Promise((resolve) => setImmediate(resolve));
  }
  return `${markdown.trimEnd()}\n`;
}
