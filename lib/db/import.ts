// Import of a JSON export (./export-format.ts) as a NEW conversation of the importing
// user, read as a stream (./export-reader.ts): each message, compaction and attempt is
// validated with its zod schema as it arrives, checked against what came before, and
// written in multi-row batches. Everything is written in ONE transaction, so a file
// refused at its last byte (or a failure at any point) leaves nothing behind.
//
// What is held besides the current batch is small per message: its seq and id (for
// version links and ranges) and each compaction's range and links. Between batches the
// import yields to the event loop, so other requests are served while it runs.
import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { z } from "zod";
import type { Db } from "./client.ts";
import { Prisma } from "./generated/client.ts";
import { toConversationView } from "./mappers.ts";
import { AppError, assertStorableText } from "../errors.ts";
import { issueMessage } from "../issue-messages.ts";
import type { ConversationView } from "../views";
import { SECTION_LIMITS, TITLE_LIMIT, conversationExport, exportedAttempt, exportedCompaction, exportedMessage, type ExportedAttachment, type ExportedCompaction, type ExportedMessage } from "./export-format.ts";
import { config } from "../config.ts";
import { sniffAttachment } from "../attachments/kinds.ts";
import { boundedImageSize } from "../attachments/limits.ts";
import { HEADER_FIELDS, readExport, SECTIONS, type ExportPart, type HeaderField, type Section } from "./export-reader.ts";

const PREFIX = "The file cannot be imported: ";

const IMPORTED_MARK = " (imported)";

/** The copy's title, marked so that it is told apart from its original in the sidebar; the original's end gives way to the mark. */
export function importedTitle(title: string): string {
  return `${title.slice(0, TITLE_LIMIT - IMPORTED_MARK.length).trimEnd()}${IMPORTED_MARK}`;
}
const refused = (message: string) => new AppError("invalid_input", `${PREFIX}${message}`);

// A batch is written when it reaches this many rows or characters of text: large enough
// that a statement's round trip is small beside its work, small enough that one
// statement's parameters stay a few MB and the event loop is not held for long.
const BATCH_ROWS = 200;
const BATCH_CHARS = 1_000_000;
// The whole import is one transaction; a 50 MB file takes well under a minute.
const TRANSACTION_MS = 15 * 60_000;

const header = conversationExport.pick({ format: true, version: true, exportedAt: true, conversation: true, settings: true });
type Header = z.infer<typeof header>;
type CompactionRange = Pick<ExportedCompaction, "ref" | "level" | "fromSeq" | "toSeq" | "supersededBy" | "undone">;

/** A zod refusal, named by its place in the file (messages.12.tokenCount: …); `at` is the item's place, empty for the header. */
function zodRefused(at: (string | number)[], error: z.ZodError): AppError {
  const fields: Record<string, string[]> = {};
  const place = (path: readonly PropertyKey[]) => [...at, ...path].map(String).join(".");
  for (const issue of error.issues) (fields[place(issue.path) || "_"] ??= []).push(issueMessage(issue));
  const first = error.issues[0];
  const where = first ? place(first.path) : "";
  return new AppError("invalid_input", `${PREFIX}${where ? `${where}: ` : ""}${first ? issueMessage(first) : "Invalid input."}`, fields);
}

function parseItem<T>(schema: z.ZodType<T>, section: Section, index: number, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw zodRefused([section, index], result.error);
  assertStorableText(result.data, `${PREFIX}${section}.${index}.`);
  return result.data;
}

const json = (value: unknown) => value as Prisma.InputJsonValue;

/** Called after each written batch with the number of messages written so far. */
export type ImportProgress = (messagesDone: number) => void;

/** Reads an export from `source` and stores it as a new conversation of `userId`, all or nothing. */
export async function importConversation(db: Db, userId: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, onProgress: ImportProgress = () => {}): Promise<ConversationView> {
  return db.$transaction(
    async (tx) => {
      // The one place the owner enters: the conversation row every other row belongs to.
      const createConversation = (data: NewConversation) => tx.conversation.create({ select: { id: true }, data: { ...data, userId } });
      const importer = new Importer(tx, createConversation, onProgress, userId);
      for await (const part of readExport(source)) await importer.take(part);
      return importer.finish();
    },
    { timeout: TRANSACTION_MS, maxWait: 10_000 },
  );
}

/**
 * Reads one export or a bulk file (an array of exports, ./bulk-export.ts) and stores each
 * conversation as a new one of `userId`, in ONE TRANSACTION PER CONVERSATION: a refusal
 * stores nothing of the conversation it is in, nor of those after it, and keeps those
 * before it (the error says how many). The file is read once, as it streams.
 */
export async function importConversations(
  db: Db,
  userId: string,
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  onProgress: ImportProgress = () => {},
): Promise<ConversationView[]> {
  const parts = readExport(source, { many: true })[Symbol.asyncIterator]();
  const stored: ConversationView[] = [];
  let messagesBefore = 0;
  try {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      if (next.value.type !== "docStart") continue;
      const conversation = await db.$transaction(
        async (tx) => {
          const createConversation = (data: NewConversation) => tx.conversation.create({ select: { id: true }, data: { ...data, userId } });
          const importer = new Importer(tx, createConversation, (done) => onProgress(messagesBefore + done), userId);
          for (let part = await parts.next(); !part.done; part = await parts.next()) {
            if (part.value.type === "docEnd") return importer.finish();
            if (part.value.type !== "docStart") await importer.take(part.value);
          }
          throw new AppError("invalid_input", "The file is not valid JSON (it ends early): an export is the .json file Export gives.");
        },
        { timeout: TRANSACTION_MS, maxWait: 10_000 },
      );
      stored.push(conversation);
      messagesBefore += conversation.messageCount;
    }
  } catch (error) {
    if (stored.length === 0 || !(error instanceof AppError)) throw error;
    throw new AppError(
      error.code,
      `${stored.length} conversation${stored.length === 1 ? " was" : "s were"} imported; conversation ${stored.length + 1} and any after it were not. ${error.message}`,
      error.details,
    );
  }
  if (stored.length === 0) throw refused("it holds no conversation.");
  return stored;
}

type Tx = Prisma.TransactionClient;
type NewConversation = Omit<Prisma.ConversationUncheckedCreateInput, "userId">;

class Importer {
  private readonly fields: Partial<Record<HeaderField, unknown>> = {};
  private conversationId: string | null = null;
  private section = 0; // index in SECTIONS of the section being read (or next)
  private readonly ended = new Set<Section>();
  // messages
  private previousSeq = 0;
  private readonly seqs = new Set<number>();
  private readonly messageIds = new Map<number, string>();
  private readonly links: { index: number; seq: number }[] = []; // links to seqs not seen yet
  private hidden = 0;
  private messagesDone = 0;
  // compactions
  private readonly ranges: CompactionRange[] = [];
  private readonly compactionIds: string[] = [];
  // the batch being filled (a message batch's attachments are written right after it)
  private rows: unknown[] = [];
  private attachments: Prisma.AttachmentCreateManyInput[] = [];
  private chars = 0;

  constructor(
    private readonly tx: Tx,
    private readonly createConversation: (data: NewConversation) => Promise<{ id: string }>,
    private readonly onProgress: ImportProgress,
    private readonly userId: string,
  ) {}

  async take(part: ExportPart): Promise<void> {
    // A bulk file's boundaries are handled by importConversations.
    if (part.type === "docStart" || part.type === "docEnd") return;
    if (part.type === "field") {
      this.fields[part.key] = part.value;
      return;
    }
    const id = await this.open();
    const at = SECTIONS.indexOf(part.section);
    if (at > this.section) {
      if (!this.ended.has(SECTIONS[this.section]!)) throw refused(`"${part.section}" must come after "${SECTIONS[this.section]}", as in Strata's exports.`);
      this.section = at;
    }
    if (part.type === "sectionEnd") return this.endSection(part.section);
    if (part.index >= SECTION_LIMITS[part.section]) {
      throw refused(`${part.section} holds more than ${SECTION_LIMITS[part.section].toLocaleString("en-US")} items, the most an export can hold.`);
    }
    switch (part.section) {
      case "messages":
        return this.message(id, part.index, parseItem(exportedMessage, "messages", part.index, part.value));
      case "compactions":
        return this.compaction(id, part.index, parseItem(exportedCompaction, "compactions", part.index, part.value));
      case "attempts":
        return this.attempt(id, part.index, parseItem(exportedAttempt, "attempts", part.index, part.value));
    }
  }

  /** The conversation row, made from the header when the first section starts (the header must come first). */
  private async open(): Promise<string> {
    if (this.conversationId) return this.conversationId;
    // What is there is checked first, so a file of another format says so rather than what it lacks.
    const result = header.partial().safeParse(this.fields);
    if (!result.success) throw zodRefused([], result.error);
    for (const field of HEADER_FIELDS) {
      if (result.data[field] === undefined) throw refused(`${field} is missing (it must come before messages, compactions and attempts, as in Strata's exports).`);
    }
    assertStorableText(result.data, PREFIX);
    const doc = result.data as Header;
    const conversation = await this.createConversation({
      title: importedTitle(doc.conversation.title),
      model: doc.conversation.model,
      systemPrompt: doc.conversation.systemPrompt,
      temperature: doc.conversation.temperature,
      settingsOverrides: json(Object.fromEntries(Object.entries(doc.settings.overrides).filter(([, value]) => value != null))),
      createdAt: new Date(doc.conversation.createdAt),
    });
    this.conversationId = conversation.id;
    return conversation.id;
  }

  private idOf(seq: number): string {
    let id = this.messageIds.get(seq);
    if (!id) this.messageIds.set(seq, (id = randomUUID()));
    return id;
  }

  private async message(conversationId: string, index: number, m: ExportedMessage): Promise<void> {
    if (m.seq <= this.previousSeq) throw refused(`messages[${index}] has seq ${m.seq}, not above the previous ${this.previousSeq}.`);
    this.previousSeq = m.seq;
    this.seqs.add(m.seq);
    // A link to a later message is checked when the messages end.
    for (const link of [m.versionOf, m.branchOf]) if (link != null && !this.seqs.has(link)) this.links.push({ index, seq: link });
    if (m.rewound) this.hidden++;
    this.add(
      {
        id: this.idOf(m.seq),
        conversationId,
        seq: m.seq,
        role: m.role,
        content: m.content,
        ...(m.toolCalls == null ? {} : { toolCalls: json(m.toolCalls) }),
        toolCallId: m.toolCallId,
        toolName: m.toolName,
        toolOutcome: m.toolOutcome,
        toolDurationMs: m.toolDurationMs,
        toolServer: m.toolServer,
        ...(m.toolContent ? { toolContent: json(m.toolContent) } : {}),
        tokenCount: m.tokenCount,
        promptTokens: m.promptTokens,
        completionTokens: m.completionTokens,
        requestTokens: m.requestTokens,
        model: m.model,
        reasoning: m.reasoning,
        status: m.status,
        error: m.error,
        pinned: m.pinned,
        rewoundAt: m.rewound ? new Date(m.createdAt) : null,
        versionOf: m.versionOf == null ? null : this.idOf(m.versionOf),
        branchOf: m.branchOf == null ? null : this.idOf(m.branchOf),
        createdAt: new Date(m.createdAt),
      },
      m.content.length + (m.toolCalls?.reduce((sum, call) => sum + call.arguments.length, 0) ?? 0),
    );
    for (const [position, file] of m.attachments.entries()) this.attachment(conversationId, index, position, m.seq, file);
    if (this.full()) await this.flush("messages");
  }

  /**
   * A message's file, held to what an upload is: its decoded size within
   * STRATA_ATTACHMENT_MAX_BYTES, its kind and media type sniffed from its bytes (the type
   * the file names is not trusted: it is served in a header and decides what reaches a
   * vision model), an image within the pixel bounds.
   */
  private attachment(conversationId: string, index: number, position: number, seq: number, file: ExportedAttachment): void {
    const where = `messages[${index}].attachments[${position}]`;
    const bytes = Buffer.from(file.data, "base64");
    const max = config().STRATA_ATTACHMENT_MAX_BYTES;
    if (bytes.byteLength > max) {
      throw refused(`${where} (“${file.name}”) is larger than the attachment limit of ${max.toLocaleString("en-US")} bytes.`);
    }
    const sniffed = sniffAttachment(file.name, bytes);
    if (sniffed.kind === "unsupported") throw refused(`${where}: ${sniffed.reason}`);
    if (sniffed.kind === "image") {
      const bounded = boundedImageSize(file.name, sniffed.mediaType, bytes);
      if ("problem" in bounded) throw refused(`${where}: ${bounded.problem}`);
    }
    this.attachments.push({
      userId: this.userId,
      conversationId,
      messageId: this.idOf(seq),
      name: file.name,
      mediaType: sniffed.mediaType,
      size: bytes.byteLength,
      bytes: new Uint8Array(bytes),
      text: file.text,
      tokenCount: file.tokenCount,
      contentStart: file.contentStart,
      position,
    });
    this.chars += file.data.length;
  }

  private async compaction(conversationId: string, index: number, c: ExportedCompaction): Promise<void> {
    const where = `compactions[${index}]`;
    if (c.ref !== index) throw refused(`${where} has ref ${c.ref}; refs must be 0, 1, 2, … in order.`);
    if (c.fromSeq > c.toSeq) throw refused(`${where} covers ${c.fromSeq}–${c.toSeq}, a reversed range.`);
    if (!this.seqs.has(c.fromSeq) || !this.seqs.has(c.toSeq)) {
      throw refused(`${where} covers ${c.fromSeq}–${c.toSeq}, but no message has seq ${this.seqs.has(c.fromSeq) ? c.toSeq : c.fromSeq}.`);
    }
    for (const kept of c.keptSeqs) {
      if (kept < c.fromSeq || kept > c.toSeq) throw refused(`${where} keeps seq ${kept}, outside its range.`);
    }
    this.ranges.push({ ref: c.ref, level: c.level, fromSeq: c.fromSeq, toSeq: c.toSeq, supersededBy: c.supersededBy, undone: c.undone });
    const id = randomUUID();
    this.compactionIds.push(id);
    // The link to the compaction that merged this one is written once all are stored (it may come later in the file).
    this.add(
      {
        id,
        conversationId,
        level: c.level,
        kind: c.kind,
        trigger: c.trigger,
        strategy: c.strategy,
        fromSeq: c.fromSeq,
        toSeq: c.toSeq,
        summary: c.summary,
        title: c.title,
        outOfView: c.outOfView,
        ...(c.sections == null ? {} : { sections: json(c.sections) }),
        summaryModel: c.summaryModel,
        instructions: c.instructions,
        summaryTokens: c.summaryTokens,
        keptSeqs: c.keptSeqs,
        coveredMessageCount: c.coveredMessageCount,
        coveredTokens: c.coveredTokens,
        messagesBefore: c.messagesBefore,
        messagesAfter: c.messagesAfter,
        tokensBefore: c.tokensBefore,
        tokensAfter: c.tokensAfter,
        durationMs: c.durationMs,
        background: c.background,
        undoneAt: c.undone ? new Date(c.undoneAt ?? c.createdAt) : null,
        // An undo by the exporting owner is the importing owner's now (the copy is theirs).
        undoneBy: c.undone && c.undoneByOwner ? this.userId : null,
        createdAt: new Date(c.createdAt),
      },
      c.summary.length + c.keptSeqs.length * 8,
    );
    if (this.full()) await this.flush("compactions");
  }

  private async attempt(conversationId: string, index: number, a: z.infer<typeof exportedAttempt>): Promise<void> {
    if (a.compaction != null && a.compaction >= this.compactionIds.length) {
      throw refused(`attempts[${index}] refers to compaction ${a.compaction}, which is not in the file.`);
    }
    this.add(
      {
        conversationId,
        trigger: a.trigger,
        strategy: a.strategy,
        outcome: a.outcome,
        reason: a.reason,
        error: a.error,
        model: a.model,
        background: a.background,
        compactionId: a.compaction == null ? null : this.compactionIds[a.compaction],
        messagesBefore: a.messagesBefore,
        messagesAfter: a.messagesAfter,
        tokensBefore: a.tokensBefore,
        tokensAfter: a.tokensAfter,
        durationMs: a.durationMs,
        createdAt: new Date(a.createdAt),
      },
      a.reason.length + (a.error?.length ?? 0),
    );
    if (this.full()) await this.flush("attempts");
  }

  private add(row: unknown, chars: number): void {
    this.rows.push(row);
    this.chars += chars;
  }

  private full(): boolean {
    return this.rows.length >= BATCH_ROWS || this.chars >= BATCH_CHARS;
  }

  private async flush(section: Section): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    this.chars = 0;
    switch (section) {
      case "messages":
        await this.tx.message.createMany({ data: rows as Prisma.MessageCreateManyInput[] });
        if (this.attachments.length > 0) {
          await this.tx.attachment.createMany({ data: this.attachments });
          this.attachments = [];
        }
        this.messagesDone += rows.length;
        this.onProgress(this.messagesDone);
        break;
      case "compactions":
        await this.tx.compaction.createMany({ data: rows as Prisma.CompactionCreateManyInput[] });
        break;
      case "attempts":
        await this.tx.compactionAttempt.createMany({ data: rows as Prisma.CompactionAttemptCreateManyInput[] });
        break;
    }
    // Let other requests in between batches: parsing the next one is synchronous work.
    await nextTurn();
  }

  private async endSection(section: Section): Promise<void> {
    await this.flush(section);
    this.ended.add(section);
    if (section === "messages") {
      for (const { index, seq } of this.links) {
        if (!this.seqs.has(seq)) throw refused(`messages[${index}] refers to seq ${seq}, which is not in the file.`);
      }
    }
    if (section === "compactions") {
      this.checkTree();
      await this.linkTree();
    }
  }

  /** Merges point to higher levels that contain them; what stands in the model's view does not overlap. */
  private checkTree(): void {
    for (const [index, c] of this.ranges.entries()) {
      if (c.supersededBy == null) continue;
      const parent = this.ranges[c.supersededBy];
      const where = `compactions[${index}]`;
      if (!parent) throw refused(`${where} is merged into compaction ${c.supersededBy}, which is not in the file.`);
      if (parent.level <= c.level) throw refused(`${where} (level ${c.level}) is merged into a compaction of level ${parent.level}.`);
      if (parent.fromSeq > c.fromSeq || parent.toSeq < c.toSeq) {
        throw refused(`${where} covers ${c.fromSeq}–${c.toSeq}, outside the ${parent.fromSeq}–${parent.toSeq} of the compaction it is merged into.`);
      }
    }
    const active = this.ranges.filter((c) => c.supersededBy == null && !c.undone).sort((a, b) => a.fromSeq - b.fromSeq);
    for (let i = 1; i < active.length; i++) {
      const [before, after] = [active[i - 1]!, active[i]!];
      if (after.fromSeq <= before.toSeq) {
        throw refused(`active compactions ${before.ref} and ${after.ref} overlap (${before.fromSeq}–${before.toSeq} and ${after.fromSeq}–${after.toSeq}).`);
      }
    }
  }

  /** Writes each merged compaction's link to the one that merged it, in batches of one statement. */
  private async linkTree(): Promise<void> {
    const links = this.ranges.filter((c) => c.supersededBy != null).map((c) => [this.compactionIds[c.ref]!, this.compactionIds[c.supersededBy!]!] as const);
    for (let start = 0; start < links.length; start += BATCH_ROWS) {
      const values = links.slice(start, start + BATCH_ROWS).map(([child, parent]) => Prisma.sql`(${child}, ${parent})`);
      await this.tx.$executeRaw`
        UPDATE "Compaction" AS c SET "supersededById" = v.parent
        FROM (VALUES ${Prisma.join(values)}) AS v(child, parent) WHERE c.id = v.child`;
    }
  }

  async finish(): Promise<ConversationView> {
    const conversationId = await this.open();
    for (const section of SECTIONS) if (!this.ended.has(section)) throw refused(`${section} is missing.`);
    const row = await this.tx.conversation.update({
      where: { id: conversationId },
      data: { lastSeq: this.previousSeq, hiddenMessageCount: this.hidden },
    });
    return toConversationView(row, this.seqs.size - this.hidden);
  }
}
