// One user's 100,000-character message of text without spaces (the longest a message
// may be) must not hold up anyone else. Counting its tokens used to block the event
// loop for seconds to minutes (tiktoken's merge loop is quadratic in a run without
// spaces): every other request waited. Through the real route handlers, in process:
// while the long message is stored, counted, compressed and answered, another user's
// GET /api/health and a normal turn, started every 150 ms, must each be answered
// within 1 s of when they were due (a probe delayed by a blocked event loop counts
// from its due time, not from when it finally ran).
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as healthRoute from "../../app/api/health/route";
import * as conversationsRoute from "../../app/api/conversations/route";
import * as messagesRoute from "../../app/api/conversations/[id]/messages/route";
import * as uploadRoute from "../../app/api/conversations/[id]/attachments/route";
import * as fileRoute from "../../app/api/attachments/[id]/route";
import { config } from "../../lib/config";
import { backgroundSettled } from "../../lib/chat/compressor";
import { closeTokenPool, warmTokenCounting } from "../../lib/llm/token-pool";
import { countMessageTokens } from "../../lib/llm/tokens";
import { bearer, signUp, uniqueEmail } from "../support/accounts";
import { tinyPdf } from "../support/tiny-pdf";
import { applySettings, setupHarness } from "./support/harness";
import * as ops from "../../lib/chat/operations";

const h = setupHarness({ chatLatencyMs: 0, summaryLatencyMs: 0, tokensPerChunk: 50 });
// What a server does when it starts (lib/server/start.ts), before it takes requests.
beforeAll(() => warmTokenCounting());
afterAll(() => closeTokenPool());

const LIMIT_MS = 1_000;
const PROBE_EVERY_MS = 150;
const LENGTH = 100_000;

/** CJK ideographs, mostly rare ones: the most tokens per character, one long piece. */
function ideographs(length: number): string {
  let text = "";
  let x = 7;
  while (text.length < length) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    text += String.fromCharCode(0x4e00 + (x % 20000));
  }
  return text;
}

const HOSTILE: [string, () => string][] = [
  ["CJK ideographs", () => ideographs(LENGTH)],
  ['"a" repeated', () => "a".repeat(LENGTH)],
  ["base64", () => randomBytes(LENGTH).toString("base64").slice(0, LENGTH)],
];

type Auth = { authorization: string };

async function createConversation(auth: Auth, title: string): Promise<string> {
  const response = await conversationsRoute.POST(
    new Request("http://127.0.0.1/api/conversations", {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ title, model: "gpt-4o-mini" }),
    }),
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { conversation: { id: string } }).conversation.id;
}

function postMessage(auth: Auth, conversationId: string, content: string, attachmentIds?: string[]): Promise<Response> {
  return messagesRoute.POST(
    new Request(`http://127.0.0.1/api/conversations/${conversationId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ content, stream: false, ...(attachmentIds ? { attachmentIds } : {}) }),
    }),
    { params: Promise.resolve({ id: conversationId }) },
  );
}

/** Milliseconds from `due` until `request` answered with `status`. */
async function answeredAfter(due: number, request: () => Promise<Response>, status: number): Promise<number> {
  const response = await request();
  expect(response.status).toBe(status);
  await response.text();
  return performance.now() - due;
}

/** What `work` gives, and how late a health check every PROBE_EVERY_MS was answered meanwhile (at least three of them). */
async function healthChecksDuring<T>(work: Promise<T>): Promise<[T, number[]]> {
  let done = false;
  const running = work.finally(() => (done = true));
  const health: number[] = [];
  let probe = 0;
  while (!done || probe < 3) {
    const due = performance.now() + PROBE_EVERY_MS;
    await sleep(PROBE_EVERY_MS);
    probe++;
    health.push(await answeredAfter(due, () => healthRoute.GET(new Request("http://localhost/api/health")), 200));
  }
  return [await running, health];
}

describe("a 100,000-character message without spaces does not hold up other users", () => {
  it.each(HOSTILE)("%s: another user's health check and turn are answered within 1 s", async (kind, make) => {
    const hostile = make();
    const hostileAuth = await bearer(h.user);
    const other = await signUp(uniqueEmail("bystander"));
    const otherAuth = await bearer(other);
    const hostileConversation = await createConversation(hostileAuth, "long message");
    const otherConversation = await createConversation(otherAuth, "normal use");

    let done = false;
    const sent = postMessage(hostileAuth, hostileConversation, hostile).finally(() => (done = true));
    const health: number[] = [];
    const turns: number[] = [];
    let probe = 0;
    // At least three rounds, however soon the long message is answered.
    while (!done || probe < 3) {
      const due = performance.now() + PROBE_EVERY_MS;
      await sleep(PROBE_EVERY_MS);
      // Turns one after another (one turn at a time per conversation); health every time.
      const checks = [answeredAfter(due, () => healthRoute.GET(new Request("http://localhost/api/health")), 200).then((ms) => health.push(ms))];
      if (probe++ % 3 === 0) {
        checks.push(answeredAfter(due, () => postMessage(otherAuth, otherConversation, `Normal message ${probe}.`), 200).then((ms) => turns.push(ms)));
      }
      await Promise.all(checks);
    }
    const response = await sent;
    expect(response.status).toBe(200);
    await backgroundSettled(hostileConversation);

    // It was stored with tiktoken's count, and the bystander was served throughout.
    const stored = await h.db.message.findFirstOrThrow({ where: { conversationId: hostileConversation, role: "user" } });
    expect(stored.tokenCount).toBe(countMessageTokens({ role: "user", content: hostile }));
    expect(health.length).toBeGreaterThan(0);
    expect(turns.length).toBeGreaterThan(0);
    console.log(`${kind}: ${health.length} health checks (max ${Math.max(...health).toFixed(0)} ms), ${turns.length} turns (max ${Math.max(...turns).toFixed(0)} ms)`);
    expect(Math.max(...health)).toBeLessThan(LIMIT_MS);
    expect(Math.max(...turns)).toBeLessThan(LIMIT_MS);
  });
});

// Summarizing such a message reads it again: its sentences for specifics to carry over, its
// cites and FACT lines. Patterns that start anywhere and backtrack to the end of a run
// took seconds to minutes there: a run of word characters (paths), a "#" before spaces
// (cites), a FACT line ending in spaces, a sentence ending in spaces (its ending).
const HOSTILE_TO_SUMMARIZE: [string, () => string][] = [
  ['"a" repeated', () => "a".repeat(LENGTH)],
  ['"#" then spaces', () => `#${" ".repeat(LENGTH - 2)}x`],
  ["a FACT line then spaces", () => `FACT key=${" ".repeat(LENGTH - 10)}x`],
  ["a sentence then spaces", () => `The port is 8080${" ".repeat(LENGTH - 17)}.`],
];

describe("summarizing a 100,000-character message does not hold up other users", () => {
  it.each(HOSTILE_TO_SUMMARIZE)("%s: another user's health checks are answered within 1 s while it is compacted", async (_kind, make) => {
    // The defaults (a 128k window): the message is stored and answered without a compaction,
    // whatever an earlier file of this suite left in the settings; it is summarized below, under the probes.
    await applySettings(h.db, {});
    const hostileAuth = await bearer(h.user);
    const conversation = await createConversation(hostileAuth, "long message, compacted");
    expect((await postMessage(hostileAuth, conversation, make())).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await postMessage(hostileAuth, conversation, `Short message ${i}.`)).status).toBe(200);
    await backgroundSettled(conversation);
    expect(await h.db.compaction.count({ where: { conversationId: conversation } })).toBe(0);
    // The long message is among what a compaction takes: only the last two messages are kept.
    await applySettings(h.db, { keepRecentCount: 2, carryDetails: true });

    const [result, health] = await healthChecksDuring(ops.compactNow(h.user, { conversationId: conversation }));
    expect(result.failed).toEqual([]);
    // The long message (the conversation's first) is under the compaction made.
    expect(result.compactions.some((compaction) => compaction.fromSeq === 1)).toBe(true);
    expect(Math.max(...health)).toBeLessThan(LIMIT_MS);
    await applySettings(h.db, {});
  });
});

// A text file as large as an upload may be (STRATA_ATTACHMENT_MAX_BYTES, 10 MB by
// default) goes into a message as its text. Whole, it was counted, compressed, searched
// and cut to fit on every later turn: seconds of the event loop each time (finding its
// FACT lines alone looked back over the line for every one of them, minutes on one long
// line). A message holds at most STRATA_MAX_MESSAGE_CHARS characters, typed or attached.
describe("a text file as large as an upload may be does not hold up other users", () => {
  it("one line of FACTs: sent, answered and compacted while another user's health checks are answered within 1 s", async () => {
    await applySettings(h.db, {});
    const hostileAuth = await bearer(h.user);
    const conversation = await createConversation(hostileAuth, "huge file");
    const max = config().STRATA_ATTACHMENT_MAX_BYTES;
    const unit = "word FACT k=v ";
    const file = unit.repeat(Math.floor(max / unit.length));
    // Storing the upload is one write of its bytes (and its text), bounded by the limit the
    // admin sets; what follows is what every turn and compaction used to pay again.
    const [uploaded, uploadHealth] = await healthChecksDuring(
      uploadRoute.POST(
        new Request(`http://127.0.0.1/api/conversations/${conversation}/attachments?name=facts.txt`, { method: "POST", headers: { ...hostileAuth, "content-type": "application/octet-stream" }, body: file }),
        { params: Promise.resolve({ id: conversation }) },
      ),
    );
    console.log(`huge file upload: ${uploadHealth.length} health checks (max ${Math.max(...uploadHealth).toFixed(0)} ms)`);
    expect(Math.max(...uploadHealth)).toBeLessThan(LIMIT_MS);
    expect(uploaded.status).toBe(201);
    const { attachment } = (await uploaded.json()) as { attachment: { id: string } };

    const [id, health] = await healthChecksDuring((async () => {
      expect((await postMessage(hostileAuth, conversation, "Read this.", [attachment.id])).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await postMessage(hostileAuth, conversation, `Short message ${i}.`)).status).toBe(200);
      await backgroundSettled(conversation);
      await applySettings(h.db, { keepRecentCount: 2, carryDetails: true });
      const result = await ops.compactNow(h.user, { conversationId: conversation });
      expect(result.failed).toEqual([]);
      return attachment.id;
    })());
    await applySettings(h.db, {});

    // The message holds the file's start and end, within the bound; the file itself is kept whole.
    const stored = await h.db.message.findFirstOrThrow({ where: { conversationId: conversation, role: "user" }, orderBy: { seq: "asc" } });
    expect(stored.content.length).toBeLessThanOrEqual(config().STRATA_MAX_MESSAGE_CHARS);
    expect(stored.content).toMatch(/left out of the message here; the whole file stays attached/);
    const download = await fileRoute.GET(new Request(`http://127.0.0.1/api/attachments/${id}`, { headers: hostileAuth }), { params: Promise.resolve({ id }) });
    expect((await download.text()).length).toBe(file.length);
    console.log(`huge file: ${health.length} health checks (max ${Math.max(...health).toFixed(0)} ms)`);
    expect(Math.max(...health)).toBeLessThan(LIMIT_MS);
  });

  // pdf.js reads a PDF synchronously: 10 MB of text pages held the event loop for about
  // 5 s, in which no request of anyone was served. It is read on a worker thread now.
  it("a PDF of text pages: read and stored while another user's health checks are answered within 1 s", async () => {
    const hostileAuth = await bearer(h.user);
    const conversation = await createConversation(hostileAuth, "huge PDF");
    const page = Array.from({ length: 50 }, (_, line) => `Line ${line}: the port is 4021 and the build is 77.`).join("\n");
    const onePage = tinyPdf([page]).length;
    const twoPages = tinyPdf([page, page]).length;
    const pages = Math.floor((config().STRATA_ATTACHMENT_MAX_BYTES * 0.98 - onePage) / (twoPages - onePage));
    const pdf = tinyPdf(Array.from({ length: pages }, () => page));
    expect(pdf.length).toBeLessThanOrEqual(config().STRATA_ATTACHMENT_MAX_BYTES);
    expect(pdf.length).toBeGreaterThan(config().STRATA_ATTACHMENT_MAX_BYTES * 0.95);

    const [uploaded, health] = await healthChecksDuring(
      uploadRoute.POST(
        new Request(`http://127.0.0.1/api/conversations/${conversation}/attachments?name=report.pdf`, { method: "POST", headers: { ...hostileAuth, "content-type": "application/octet-stream" }, body: Buffer.from(pdf) }),
        { params: Promise.resolve({ id: conversation }) },
      ),
    );
    expect(uploaded.status).toBe(201);
    const { attachment } = (await uploaded.json()) as { attachment: { id: string } };
    const stored = await h.db.attachment.findUniqueOrThrow({ where: { id: attachment.id } });
    expect(stored.text?.split("\n\n")).toHaveLength(pages);
    console.log(`huge PDF (${pages} pages, ${(pdf.length / 1e6).toFixed(1)} MB): ${health.length} health checks (max ${Math.max(...health).toFixed(0)} ms)`);
    expect(Math.max(...health)).toBeLessThan(LIMIT_MS);
  });
});
