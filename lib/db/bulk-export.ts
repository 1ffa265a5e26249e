// Every conversation of one user as one JSON file: an array of the per-conversation
// exports (./export-format.ts), written as a stream. Only one conversation's document is
// held at a time, so 10,000 conversations cost what the largest one does; the importer
// reads the same array back (./export-reader.ts, one transaction per conversation).
import type { Db } from "./client.ts";
import { exportConversation } from "./export.ts";
import { AppError } from "../errors.ts";

// Ids are read a page at a time (keyset on id), so a user's list is never loaded whole.
const ID_PAGE = 100;

/** The owner's conversation ids, oldest first (uuid v7 ids sort by creation), page by page. */
async function* conversationIds(db: Db, userId: string): AsyncGenerator<string> {
  let after: string | null = null;
  for (;;) {
    const rows: { id: string }[] = await db.conversation.findMany({
      where: { userId, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      select: { id: true },
      take: ID_PAGE,
    });
    for (const row of rows) yield row.id;
    if (rows.length < ID_PAGE) return;
    after = rows.at(-1)!.id;
  }
}

/**
 * The file's text in pieces: "[", each conversation's export, "]". A conversation deleted
 * while the file is written is left out (it is no longer the user's to export).
 */
export async function* bulkExportChunks(db: Db, userId: string): AsyncGenerator<string> {
  yield "[";
  let first = true;
  for await (const id of conversationIds(db, userId)) {
    const doc = await exportConversation(db, userId, id).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "not_found") return null;
      throw error;
    });
    if (!doc) continue;
    yield `${first ? "\n" : ",\n"}${JSON.stringify(doc)}`;
    first = false;
  }
  yield "\n]\n";
}

/** The chunks as a byte stream that reads the next conversation only when the reader wants more. */
export function bulkExportStream(db: Db, userId: string): ReadableStream<Uint8Array> {
  const chunks = bulkExportChunks(db, userId);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
