// Imports as jobs, through the route handlers: all or nothing when the last item of a
// large file is bad, the byte limit applied while the body streams, one import per user
// at a time, progress until the new conversation (identical to its source), and an
// import's status visible to its owner only.
import { existsSync } from "node:fs";
import { mkdir, rm as rmFile, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as exportRoute from "../../app/api/conversations/[id]/export/route";
import * as importRoute from "../../app/api/conversations/import/route";
import * as statusRoute from "../../app/api/imports/[id]/route";
import { MAX_RUNNING } from "../../lib/chat/imports";
import type { ConversationExport } from "../../lib/db/export-format";
import type { ImportView } from "../../lib/views";
import { bigExport, importRequest } from "../support/big-export";
import { newConversation, rowCounts, send, setupHarness, saveTestSettings } from "../support/harness";
import { bearer, signUp, uniqueEmail } from "../support/accounts";

const h = setupHarness({ resetEachTest: false });
const MODEL = "gpt-4o-mini";
const ASYNC = { prefer: "respond-async" };
let auth: { authorization: string };

type ErrorBody = { error: { message: string } };

async function status(id: string, as = auth): Promise<Response> {
  return statusRoute.GET(new Request(`http://127.0.0.1/api/imports/${id}`, { headers: as }), { params: Promise.resolve({ id }) });
}

/** Polls an import until it is done or failed, recording every state seen. */
async function settle(id: string, seen: string[] = []): Promise<ImportView> {
  for (;;) {
    const response = await status(id);
    expect(response.status).toBe(200);
    const { import: view } = (await response.json()) as { import: ImportView };
    seen.push(view.state);
    if (view.state === "done" || view.state === "failed") return view;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function exportJson(id: string): Promise<ConversationExport> {
  const response = await exportRoute.GET(new Request(`http://127.0.0.1/api/conversations/${id}/export?format=json`, { headers: auth }), { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  return (await response.json()) as ConversationExport;
}

/** A body that sends its first chunk, then waits for `open()` before sending the rest. */
function heldBody(source: ReadableStream<Uint8Array>): { body: ReadableStream<Uint8Array>; reading: Promise<void>; open: () => void } {
  const reader = source.getReader();
  let open!: () => void;
  let markReading!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const reading = new Promise<void>((resolve) => (markReading = resolve));
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (++pulls === 2) {
        markReading();
        await gate;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
  return { body, reading, open };
}

// Spooled files as a process that died mid-import leaves them: one from two hours ago, one fresh.
const SPOOL = path.join(tmpdir(), "strata-imports");
const orphan = path.join(SPOOL, "00000000-dead-4000-8000-000000000000.json");
const recent = path.join(SPOOL, "00000000-live-4000-8000-000000000000.json");

beforeAll(async () => {
  auth = await bearer(h.user);
  await mkdir(SPOOL, { recursive: true });
  await writeFile(orphan, "{}");
  await writeFile(recent, "{}");
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  await utimes(orphan, twoHoursAgo, twoHoursAgo);
  await saveTestSettings(h.db, { contextWindowOverrides: { [MODEL]: 2000 }, hardLimitReserve: 200, keepRecentCount: 4, threshold: 0.6, preemptiveThreshold: 0, maxSummaryTokensPerLevel: 150 });
});

describe("imports as jobs", () => {
  it("a large file whose last message is invalid is refused after batches were written, and nothing of it is kept", async () => {
    const before = await rowCounts(h.db);
    const started = await importRoute.POST(importRequest(bigExport({ messages: 3000, contentChars: 1500, badLast: true }), { ...auth, ...ASYNC }));
    expect(started.status).toBe(202);
    const { import: job } = (await started.json()) as { import: { id: string } };
    const view = await settle(job.id);
    expect(view.state).toBe("failed");
    expect(view.state === "failed" && view.error).toMatch(/messages\.2999\.role/);
    // Batches of the first 2,999 messages reached the database before the refusal …
    expect(view.messagesDone).toBeGreaterThanOrEqual(2500);
    // … and were rolled back with everything else.
    expect(await rowCounts(h.db)).toEqual(before);

    // Without Prefer: respond-async the same refusal is the request's own answer.
    const waited = await importRoute.POST(importRequest(bigExport({ messages: 1200, contentChars: 500, badLast: true }), auth));
    expect(waited.status).toBe(400);
    expect(((await waited.json()) as ErrorBody).error.message).toMatch(/messages\.1199\.role/);
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("removes the spooled files a dead process left behind, and only those", async () => {
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    await rmFile(recent);
  });

  it("refuses a body past the limit with 413 while it streams, without reading the rest", async () => {
    process.env.STRATA_MAX_IMPORT_BYTES = "200000";
    try {
      let pulled = 0;
      let cancelled = false;
      // An endless body: a server that read it whole before checking would never answer.
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 65_536;
          controller.enqueue(new Uint8Array(65_536).fill(0x20));
        },
        cancel() {
          cancelled = true;
        },
      });
      const response = await importRoute.POST(importRequest(endless, auth));
      expect(response.status).toBe(413);
      expect(((await response.json()) as ErrorBody).error.message).toMatch(/200,000 bytes \(STRATA_MAX_IMPORT_BYTES\)/);
      expect(cancelled).toBe(true);
      expect(pulled).toBeLessThan(200_000 + 5 * 65_536);
    } finally {
      delete process.env.STRATA_MAX_IMPORT_BYTES;
    }
    // The refused import is over: the next one is accepted.
    const next = await importRoute.POST(importRequest(bigExport({ messages: 10, contentChars: 100 }), auth));
    expect(next.status).toBe(201);
  });

  it("refuses a second import of the same user while the first runs (409), then lets the first finish", async () => {
    const held = heldBody(bigExport({ messages: 400, contentChars: 1000 }));
    const first = importRoute.POST(importRequest(held.body, auth));
    await held.reading;
    const second = await importRoute.POST(importRequest(bigExport({ messages: 5, contentChars: 100 }), auth));
    expect(second.status).toBe(409);
    expect(((await second.json()) as ErrorBody).error.message).toMatch(/one import at a time/);
    // Another user is not held up by it.
    const other = await signUp(uniqueEmail("other-importer"));
    const theirs = await importRoute.POST(importRequest(bigExport({ messages: 5, contentChars: 100 }), await bearer(other)));
    expect(theirs.status).toBe(201);
    held.open();
    const response = await first;
    expect(response.status).toBe(201);
    expect(((await response.json()) as { conversation: { messageCount: number } }).conversation.messageCount).toBe(400);
  });

  it("reports progress until done, and the new conversation is identical to its source", async () => {
    const source = await newConversation(MODEL);
    for (let turn = 1; turn <= 12; turn++) await send(source.id, `Turn ${turn}: FACT k${turn}=v${turn} REPLY_WORDS=120`);
    const first = await exportJson(source.id);
    expect(first.compactions.length).toBeGreaterThan(0);
    const started = await importRoute.POST(importRequest(JSON.stringify(first), { ...auth, ...ASYNC }));
    expect(started.status).toBe(202);
    const { import: job } = (await started.json()) as { import: { id: string } };
    expect(started.headers.get("location")).toBe(`/api/imports/${job.id}`);
    const seen: string[] = [];
    const view = await settle(job.id, seen);
    expect(view.state, JSON.stringify(view)).toBe("done");
    expect(view.messagesDone).toBe(first.messages.length);
    const second = await exportJson(view.state === "done" ? view.conversationId : "");
    const { exportedAt: _a, ...a } = first;
    const { exportedAt: _b, ...b } = second;
    // Identical but for the copy's title, marked as imported.
    expect(b).toEqual({ ...a, conversation: { ...a.conversation, title: `${a.conversation.title} (imported)` } });

    // A large one reports its messages as they are written.
    const big = await importRoute.POST(importRequest(bigExport({ messages: 2500, contentChars: 800 }), { ...auth, ...ASYNC }));
    const bigView = await settle(((await big.json()) as { import: { id: string } }).import.id);
    expect(bigView).toMatchObject({ state: "done", messagesDone: 2500 });
  });

  it(`writes at most ${MAX_RUNNING} imports at once; the others wait their turn and then finish`, async () => {
    const users = await Promise.all(Array.from({ length: MAX_RUNNING + 2 }, async (_, i) => bearer(await signUp(uniqueEmail(`queued${i}`)))));
    const ids = await Promise.all(
      users.map(async (as) => {
        const response = await importRoute.POST(importRequest(bigExport({ messages: 1500, contentChars: 1500 }), { ...as, ...ASYNC }));
        expect(response.status).toBe(202);
        return { as, id: ((await response.json()) as { import: { id: string } }).import.id };
      }),
    );
    let mostRunning = 0;
    let queuedSeen = false;
    for (;;) {
      // How many run at once is read in one statement (a snapshot): status requests one by
      // one could see an import still running and, a moment later, the one that took its slot.
      const rows = await h.db.conversationImport.findMany({ where: { id: { in: ids.map(({ id }) => id) } }, select: { state: true } });
      mostRunning = Math.max(mostRunning, rows.filter((row) => row.state === "running").length);
      const views = await Promise.all(ids.map(async ({ as, id }) => ((await (await status(id, as)).json()) as { import: ImportView }).import));
      queuedSeen ||= views.some((view) => view.state === "queued");
      if (views.every((view) => view.state === "done" || view.state === "failed")) {
        expect(views.map((view) => view.state)).toEqual(ids.map(() => "done"));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(mostRunning).toBeLessThanOrEqual(MAX_RUNNING);
    expect(queuedSeen).toBe(true);
  });

  it("shows an import's status to its owner only", async () => {
    const started = await importRoute.POST(importRequest(bigExport({ messages: 3, contentChars: 50 }), { ...auth, ...ASYNC }));
    const { import: job } = (await started.json()) as { import: { id: string } };
    await settle(job.id);
    const stranger = await bearer(await signUp(uniqueEmail("stranger")));
    const response = await status(job.id, stranger);
    expect(response.status).toBe(404);
    expect(JSON.stringify(await response.json())).not.toContain("done");
    expect((await status("not-an-id")).status).toBe(404);
  });
});
