// The ownership matrix: every route handler under app/api (found on disk) and every
// server action exported by app/actions.ts, called with no session, as another user and
// as the owner → 401 / 404 / success. A route or action missing from the tables below
// fails the test: a new door must state who may open it. So does a server action in any
// other "use server" module, and a page that does not resolve its user, unless declared
// public with a reason.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_SETTINGS } from "../../lib/compression/settings";
import * as ops from "../../lib/chat/operations";
import { appendMessages } from "../../lib/db/messages";
import { claimImport, updateImport } from "../../lib/db/imports";
import type { ActionResult } from "../../lib/errors";
import { setupHarness } from "../support/harness";
import { waitForApproval } from "../../lib/chat/tools/approval";
import { bearer, signIn, signUp, type TestUser } from "../support/accounts";
import { createMcpServer } from "../../lib/db/mcp-servers";
import { createAttachment } from "../../lib/db/attachments";
import { ownerReads, type OwnerRead } from "../../lib/http/owner-reads";

// Server actions read the request's headers through next/headers; here they are the
// headers of whoever the case acts as.
let actionHeaders = new Headers();
vi.mock("next/headers", () => ({ headers: async () => actionHeaders }));

const actions = await import("../../app/actions");

const h = setupHarness();
const ROOT = path.resolve(__dirname, "..", "..");
const API = path.join(ROOT, "app", "api");
const ID_SEGMENT = "[id]";
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/** Who may use it: the owner of the resource named in the URL, any signed-in user (their own data), or the admin. */
type Scope = "owned" | "user" | "admin";

type Fixture = {
  conversationId: string;
  compactionId: string;
  tokenId: string;
  sessionId: string;
  lastMessageId: string;
  importId: string;
  toolServerId: string;
  attachmentId: string;
  shareLinkId: string;
};

type RouteCase = {
  scope: Scope;
  /** The `[id]` of the URL. */
  id?: (f: Fixture) => string;
  query?: string | ((f: Fixture) => string);
  body?: unknown | ((f: Fixture) => unknown);
  /** A case that destroys its resource gets a conversation of its own. */
  fresh?: boolean;
};

// Reasons, not just names: these answer to anyone by design.
const PUBLIC_ROUTES: Record<string, string> = {
  "/api/auth/[...all]": "better-auth's own endpoints (sign-up, sign-in, sign-out, session); the library checks what each needs",
  "/api/health": "load balancers and orchestrators probe it without credentials; it reveals only whether the database, migrations and queue are up",
  "/api/shared/[token]/messages": "a shared link's reads: the token is the key, scoped to its one conversation (tests/integration/shares.test.ts)",
  "/api/shared/[token]/compactions/[id]/children": "a shared link's reads: the token is the key, scoped to its one conversation (tests/integration/shares.test.ts)",
  "/api/shared/[token]/path": "a shared link's reads: the token is the key, scoped to its one conversation (tests/integration/shares.test.ts)",
  "/api/shared/[token]/pinned": "a shared link's reads: the token is the key, scoped to its one conversation (tests/integration/shares.test.ts)",
  "/api/shared/[token]/attachments": "a shared link's reads: the token is the key, scoped to its one conversation (tests/integration/images.test.ts)",
  "/api/shared/[token]/attachments/[id]": "a shared link's reads: the token is the key, scoped to its one conversation's sent files (tests/integration/images.test.ts)",
  "/api/metrics": "server metrics, not account data; guarded by its own bearer token (STRATA_METRICS_TOKEN) when set, tested in health.test.ts",
};

// Server actions outside app/actions.ts that answer without a session, by design.
const PUBLIC_ACTIONS: Record<string, Record<string, string>> = {
  "app/health-actions.ts": {
    databaseProblemAction: "the error boundary asks whether the database is down, which needs no session (sessions live in the database); it reveals only that",
  },
};

// Server actions of the account and admin pages, outside app/actions.ts: each runs only
// for a signed-in browser session (never a token), the admin's only for an admin. What
// each does for the right user is tested in tests/integration/account-management.test.ts;
// here, that nobody else gets through.
const PAGE_ACTIONS: Record<string, Record<string, { admin: boolean; args: unknown[] }>> = {
  "app/(app)/account/actions.ts": {
    updateProfileAction: { admin: false, args: [{ name: "Matrix" }] },
    deleteAccountAction: { admin: false, args: [{ password: "not the password" }] },
  },
  "app/(app)/admin/user-actions.ts": {
    listUsersAction: { admin: true, args: [{}] },
    setUserDisabledAction: { admin: true, args: [{ userId: "00000000-0000-7000-8000-000000000000", disabled: true }] },
    setUserRoleAction: { admin: true, args: [{ userId: "00000000-0000-7000-8000-000000000000", role: "admin" }] },
    createResetLinkAction: { admin: true, args: ["00000000-0000-7000-8000-000000000000"] },
  },
};

// Pages that render without a signed-in user, by design. Every other page resolves its user with requirePageUser.
const PUBLIC_PAGES: Record<string, string> = {
  "app/(auth)/sign-in/page.tsx": "the sign-in form; a signed-in visitor is sent home",
  "app/(auth)/sign-up/page.tsx": "the sign-up form; a signed-in visitor is sent home",
  "app/(auth)/reset-password/page.tsx": "the form a password reset link opens; the link's one-time token is the key (tests/integration/account-management.test.ts)",
  "app/s/[token]/page.tsx": "a shared link: the token alone opens one conversation read-only (tests/integration/shares.test.ts)",
};

const conversation = (f: Fixture) => f.conversationId;

const MINIMAL_EXPORT = {
  format: "strata.conversation",
  version: 1,
  exportedAt: "2026-01-01T00:00:00.000Z",
  conversation: { title: "imported", model: "gpt-4o-mini", systemPrompt: "", createdAt: "2026-01-01T00:00:00.000Z" },
  settings: { overrides: {}, effective: {} },
  messages: [],
  compactions: [],
  attempts: [],
};

const PRICE = { model: "matrix-model", inputPerMillion: 1, cachedInputPerMillion: 0.1, outputPerMillion: 2 };

const ROUTES: Record<string, Partial<Record<Method, RouteCase>>> = {
  "/api/conversations": { GET: { scope: "user" }, POST: { scope: "user", body: { title: "matrix" } } },
  "/api/conversations/[id]": {
    GET: { scope: "owned", id: conversation },
    PATCH: { scope: "owned", id: conversation, body: { title: "renamed" } },
    DELETE: { scope: "owned", id: conversation, fresh: true },
  },
  "/api/conversations/[id]/messages": {
    GET: { scope: "owned", id: conversation, query: "?limit=10" },
    POST: { scope: "owned", id: conversation, body: { content: "Hello from the matrix" } },
  },
  "/api/conversations/[id]/stop": { POST: { scope: "owned", id: conversation } },
  // A call waits on the fixture's conversation (registered in beforeAll) for the owner's answer.
  "/api/conversations/[id]/tool-approvals": { POST: { scope: "owned", id: conversation, body: { callId: "matrix_route_call", approved: false } } },
  "/api/conversations/[id]/versions": { POST: { scope: "owned", id: conversation, body: (f: Fixture) => ({ messageId: f.lastMessageId }) } },
  "/api/conversations/[id]/compact": { POST: { scope: "owned", id: conversation, body: { preview: true } } },
  "/api/conversations/[id]/context": { GET: { scope: "owned", id: conversation } },
  "/api/conversations/[id]/changes": { GET: { scope: "owned", id: conversation } },
  "/api/conversations/[id]/live": { GET: { scope: "owned", id: conversation } },
  "/api/conversations/[id]/attempts": { GET: { scope: "owned", id: conversation } },
  "/api/conversations/[id]/cost": { GET: { scope: "owned", id: conversation } },
  "/api/conversations/[id]/path": { GET: { scope: "owned", id: conversation, query: "?seq=1" } },
  "/api/conversations/[id]/pinned": { GET: { scope: "owned", id: conversation } },
  "/api/conversations/[id]/pinned/covered": { GET: { scope: "owned", id: conversation } },
  // The caller's own pages: the stranger gets theirs, never the owner's conversation.
  "/api/conversations/pages": { GET: { scope: "user", query: "?limit=5" } },
  "/api/prices": { GET: { scope: "admin" }, PUT: { scope: "admin", body: PRICE } },
  "/api/conversations/[id]/allowed-tools": { GET: { scope: "owned", id: conversation } },
  "/api/conversations/[id]/tool-servers": { GET: { scope: "owned", id: conversation } },
  "/api/conversations/[id]/shares": { GET: { scope: "owned", id: conversation } },
  "/api/conversations/[id]/settings": {
    GET: { scope: "owned", id: conversation },
    PATCH: { scope: "owned", id: conversation, body: { keepRecentCount: 6 } },
  },
  "/api/compactions/[id]/children": { GET: { scope: "owned", id: (f) => f.compactionId, query: "?limit=5" } },
  "/api/compactions/[id]/conversation": { POST: { scope: "owned", id: (f) => f.compactionId } },
  "/api/compactions/[id]/undo": { POST: { scope: "owned", id: (f) => f.compactionId, fresh: true } },
  "/api/settings": { GET: { scope: "user" }, PUT: { scope: "user", body: DEFAULT_SETTINGS }, PATCH: { scope: "user", body: { keepRecentCount: 6 } } },
  "/api/models": { GET: { scope: "user" } },
  "/api/conversations/[id]/model": {
    GET: { scope: "owned", id: conversation },
    PATCH: { scope: "owned", id: conversation, body: { temperature: 0.4 } },
  },
  "/api/settings/instructions": { GET: { scope: "user" }, PUT: { scope: "user", body: { instructions: "", temperature: null } } },
  // Scoped by the query string; a case below names another user's conversation in it.
  "/api/search": { GET: { scope: "user", query: "?q=question" } },
  "/api/conversations/[id]/export": { GET: { scope: "owned", id: conversation, query: "?format=markdown" } },
  "/api/conversations/import": { POST: { scope: "user", body: MINIMAL_EXPORT } },
  "/api/conversations/export": { GET: { scope: "user" } },
  "/api/imports/[id]": { GET: { scope: "owned", id: (f) => f.importId } },
  "/api/conversations/[id]/attachments": {
    GET: { scope: "owned", id: conversation },
    // The body is the file: here a small JSON document.
    POST: { scope: "owned", id: conversation, query: "?name=matrix.json", body: { matrix: true } },
  },
  "/api/attachments/[id]": {
    GET: { scope: "owned", id: (f) => f.attachmentId },
    DELETE: { scope: "owned", id: (f) => f.attachmentId, fresh: true },
  },
};

/** `session`: only with the browser's session cookie; an API token is refused as forbidden. */
type ActionCase = { scope: Scope; args?: (f: Fixture) => unknown[]; fresh?: boolean; session?: true };
const viaId = (f: Fixture) => [f.conversationId];

let serverCount = 0;

// Typed against the module: a new action does not compile until it is listed here.
const ACTIONS: Record<keyof typeof actions, ActionCase> = {
  sendMessageAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, content: "Hi from an action" }] },
  createConversationAction: { scope: "user", args: () => [{}] },
  updateConversationAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, title: "action title" }] },
  deleteConversationAction: { scope: "owned", args: viaId, fresh: true },
  pinMessageAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, seq: 3, pinned: true }] },
  stopTurnAction: { scope: "owned", args: viaId },
  answerToolApprovalAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, callId: "matrix_action_call", approved: false }] },
  disallowToolAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, server: "files", toolName: "files__write_file" }] },
  rewindAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, turns: 1 }], fresh: true },
  switchVersionAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, messageId: f.lastMessageId }] },
  compactNowAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, preview: true }] },
  applyProposalAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, summary: "The first exchange.", fromSeq: 1, toSeq: 2 }], fresh: true },
  saveSettingsAction: { scope: "user", args: () => [DEFAULT_SETTINGS] },
  updateConversationSettingsAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, threshold: 0.75 }] },
  saveDefaultsAction: { scope: "admin", args: () => [DEFAULT_SETTINGS] },
  setSignupsOpenAction: { scope: "admin", args: () => [true] },
  listToolServersAction: { scope: "admin", args: () => [false], session: true },
  createToolServerAction: { scope: "admin", args: () => [{ name: `matrix-new-${++serverCount}`, transport: { kind: "stdio", command: "true" } }], session: true },
  updateToolServerAction: {
    scope: "admin",
    args: (f) => [{ id: f.toolServerId, name: `matrix-edit-${++serverCount}`, transport: { kind: "http", url: "http://127.0.0.1:9/mcp" } }],
    session: true,
  },
  deleteToolServerAction: { scope: "admin", args: (f) => [f.toolServerId], fresh: true, session: true },
  setConversationToolServerAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, serverId: f.toolServerId, on: true }] },
  savePriceAction: { scope: "admin", args: () => [PRICE] },
  createTokenAction: { scope: "user", args: () => [{ name: "matrix", expiresInDays: 30 }], session: true },
  revokeTokenAction: { scope: "owned", args: (f) => [f.tokenId], fresh: true, session: true },
  revokeSessionAction: { scope: "owned", args: (f) => [f.sessionId], fresh: true, session: true },
  conversationFromSummaryAction: { scope: "owned", args: (f) => [{ compactionId: f.compactionId }] },
  undoCompactionAction: { scope: "owned", args: (f) => [{ compactionId: f.compactionId }], fresh: true },
  pinConversationAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, pinned: true }] },
  archiveConversationAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, archived: false }] },
  renameConversationAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, title: "renamed inline" }] },
  deleteMessageAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, seq: 4 }], fresh: true },
  updateModelSettingsAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, temperature: 0.5 }] },
  saveChatDefaultsAction: { scope: "user", args: () => [{ instructions: "", temperature: null }] },
  saveAdminModelListAction: { scope: "admin", args: () => [{ models: [] }] },
  saveImageModelListsAction: { scope: "admin", args: () => [{ imageModels: [], textOnlyModels: [] }] },
  createShareLinkAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, expiresInDays: 7 }], session: true },
  revokeShareLinkAction: { scope: "owned", args: (f) => [{ conversationId: f.conversationId, linkId: f.shareLinkId }], fresh: true },
  // Last: it revokes the owner's token that the cases above use.
  revokeAllTokensAction: { scope: "user", session: true },
};

function routeFiles(dir = API): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

const routePath = (file: string) => `/${path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).join("/")}`;

let owner: TestUser & { cookie: string };
let other: TestUser & { cookie: string };
let ownerAuth: Record<string, string>;
let otherAuth: Record<string, string>;
let shared: Fixture;
const approvalsEnd = new AbortController();

/** A conversation of the owner with four messages, a compaction over the first two, and a token. */
async function makeFixture(): Promise<Fixture> {
  const { id: conversationId } = await ops.createConversation(owner, { title: "owned", model: "gpt-4o-mini" });
  const messages = await appendMessages(
    h.db,
    owner.id,
    conversationId,
    ["first question", "first answer", "second question", "second answer"].map((content, index) =>
      index % 2 === 0
        ? { role: "user" as const, content, tokenCount: 5 }
        : { role: "assistant" as const, content, tokenCount: 5, model: "gpt-4o-mini", status: "complete" as const },
    ),
  );
  const compaction = await h.db.compaction.create({
    data: {
      conversationId, level: 1, kind: "summary", trigger: "manual", strategy: "ai_summary", fromSeq: 1, toSeq: 2,
      summary: "The first exchange.", summaryTokens: 4, coveredMessageCount: 2, coveredTokens: 10,
      messagesBefore: 4, messagesAfter: 3, tokensBefore: 20, tokensAfter: 14, durationMs: 1,
    },
  });
  const { id: tokenId } = await ops.createToken(owner, "fixture");
  // Another session of the owner (not the one the owner's cases use).
  await signIn(owner.email, owner.password);
  const session = await h.db.session.findFirstOrThrow({ where: { userId: owner.id }, orderBy: { createdAt: "desc" } });
  const importId = await claimImport(h.db, owner.id, []);
  await updateImport(h.db, owner.id, importId, { state: "done", conversationId });
  // A server nothing connects to: the cases only configure and switch it.
  const toolServer = await createMcpServer(h.db, { name: `matrix-${importId.slice(-12)}`, transport: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} }, enabled: true, onByDefault: false });
  const attachment = await createAttachment(h.db, owner.id, conversationId, { name: "notes.md", mediaType: "text/markdown", bytes: new TextEncoder().encode("# Notes"), text: "# Notes", tokenCount: 9 });
  const { link } = await ops.createShareLink(owner, { conversationId, expiresInDays: null });
  return {
    conversationId,
    compactionId: compaction.id,
    tokenId,
    sessionId: session.id,
    lastMessageId: messages.at(-1)!.id,
    importId,
    toolServerId: toolServer.id,
    attachmentId: attachment.id,
    shareLinkId: link.id,
  };
}

beforeAll(async () => {
  owner = await signUp();
  other = await signUp();
  // The owner is also the admin here, so "admin" cases have an owner to succeed for.
  await h.db.user.update({ where: { id: owner.id }, data: { role: "admin" } });
  owner = { ...owner, role: "admin" };
  ownerAuth = await bearer(owner);
  // The other user comes with a session cookie, and the Origin a browser sends with it: both ways in are covered.
  otherAuth = { cookie: other.cookie, origin: "http://localhost" };
  shared = await makeFixture();
  // The calls the approval route and action answer (as a turn would register them).
  for (const callId of ["matrix_route_call", "matrix_action_call"]) {
    void waitForApproval({ userId: owner.id, conversationId: shared.conversationId, callId, timeoutMs: 600_000, signal: approvalsEnd.signal });
  }
});
afterAll(async () => {
  approvalsEnd.abort();
  // The database outlives this file: the tool servers the matrix made must not reach later files' turns.
  await h.db.mcpServer.deleteMany({});
});

function request(method: Method, url: string, auth: Record<string, string>, body: unknown): Request {
  return new Request(`http://localhost${url}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function callRoute(file: string, method: Method, rule: RouteCase, fixture: Fixture, auth: Record<string, string>) {
  const handlers = (await import(pathToFileURL(file).href)) as Record<Method, (req: Request, ctx: unknown) => Promise<Response>>;
  const id = rule.id?.(fixture);
  const url = routePath(file).replace("[id]", id ?? "") + (typeof rule.query === "function" ? rule.query(fixture) : (rule.query ?? ""));
  const response = await handlers[method](request(method, url, auth, typeof rule.body === "function" ? rule.body(fixture) : rule.body), { params: Promise.resolve({ id }) });
  const text = await response.text();
  return { status: response.status, text };
}

/** The owner's reads by the route that answers them. */
const READ_OF_ROUTE = new Map(
  (Object.keys(ownerReads) as OwnerRead[]).map((read) => [ownerReads[read].path(ID_SEGMENT).replace(encodeURIComponent(ID_SEGMENT), ID_SEGMENT), read] as const),
);

describe("every route handler checks who is asking", () => {
  it("every owner read the browser makes has a route on disk", () => {
    const routes = new Set(routeFiles().map(routePath));
    expect([...READ_OF_ROUTE.keys()].filter((route) => !routes.has(route))).toEqual([]);
  });

  const files = routeFiles();

  it("finds the routes on disk, and every one is in the matrix or declared public", () => {
    expect(files.length).toBeGreaterThan(8);
    const unlisted = files.map(routePath).filter((route) => !(route in ROUTES) && !(route in PUBLIC_ROUTES));
    expect(unlisted, "new route(s): add them to ROUTES (or PUBLIC_ROUTES with a reason)").toEqual([]);
  });

  for (const file of files) {
    const route = routePath(file);
    if (route in PUBLIC_ROUTES) continue;
    it(`${route}: every exported method is in the matrix`, async () => {
      const handlers = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      const exported = METHODS.filter((method) => typeof handlers[method] === "function");
      expect(exported.length).toBeGreaterThan(0);
      expect(exported.filter((method) => !ROUTES[route]?.[method]), "add the method to ROUTES").toEqual([]);
    });
    for (const [method, rule] of Object.entries(ROUTES[route] ?? {}) as [Method, RouteCase][]) {
      const strangerGets = { owned: "404", admin: "403", user: "only their own" }[rule.scope];
      it(`${method} ${route}: 401 without a session, ${strangerGets} for another user, success for the owner`, async () => {
        const fixture = rule.fresh ? await makeFixture() : shared;
        const anonymous = await callRoute(file, method, rule, fixture, {});
        expect(anonymous.status, anonymous.text).toBe(401);
        const stranger = await callRoute(file, method, rule, fixture, otherAuth);
        if (rule.scope === "owned") {
          expect(stranger.status, stranger.text).toBe(404);
          expect(JSON.parse(stranger.text)).toMatchObject({ error: { code: "not_found" } });
        } else if (rule.scope === "admin") {
          expect(stranger.status, stranger.text).toBe(403);
          expect(JSON.parse(stranger.text)).toMatchObject({ error: { code: "forbidden" } });
        } else {
          expect(stranger.status, stranger.text).toBeLessThan(300);
          expect(stranger.text).not.toContain(fixture.conversationId);
        }
        const mine = await callRoute(file, method, rule, fixture, ownerAuth);
        expect(mine.status, mine.text).toBeLessThan(300);
        // A read the browser makes through lib/http/owner-reads.ts: its answer is what the browser checks it against.
        const read = method === "GET" ? READ_OF_ROUTE.get(route) : undefined;
        if (read) expect(ownerReads[read].answer.safeParse(JSON.parse(mine.text)).success, `${read}: ${mine.text.slice(0, 300)}`).toBe(true);
      });
    }
  }

  // Ids the database cannot take (a NUL) or that no id is (5,000 characters): a clear refusal, never a 500 or an echo.
  const malformed = `a\u0000${"x".repeat(5_000)}`;
  for (const file of files) {
    const route = routePath(file);
    if (!route.includes(ID_SEGMENT)) continue;
    for (const [method, rule] of Object.entries(ROUTES[route] ?? {}) as [Method, RouteCase][]) {
      it(`${method} ${route}: a malformed id is refused as bad input or not found`, async () => {
        const answer = await callRoute(file, method, { ...rule, id: () => malformed }, shared, ownerAuth);
        expect([400, 404], answer.text.slice(0, 300)).toContain(answer.status);
        expect(answer.text.length, answer.text.slice(0, 300)).toBeLessThan(1_000);
      });
    }
  }

  it("a search inside another user's conversation (by its id in the query) is not found", async () => {
    const file = path.join(API, "search", "route.ts");
    const rule: RouteCase = { scope: "owned", query: (f) => `?q=question&conversationId=${f.conversationId}` };
    const stranger = await callRoute(file, "GET", rule, shared, otherAuth);
    expect(stranger.status, stranger.text).toBe(404);
    const mine = await callRoute(file, "GET", rule, shared, ownerAuth);
    expect(mine.status, mine.text).toBe(200);
    expect(JSON.parse(mine.text).results.length).toBeGreaterThan(0);
  });

  it("another user's id answers exactly like an unknown id", async () => {
    const unknown = "0190a000-0000-7000-8000-000000000000";
    const file = path.join(API, "conversations", "[id]", "route.ts");
    const rule = ROUTES["/api/conversations/[id]"]!.GET!;
    const theirs = await callRoute(file, "GET", rule, shared, otherAuth);
    const missing = await callRoute(file, "GET", { ...rule, id: () => unknown }, shared, otherAuth);
    expect(theirs.status).toBe(missing.status);
    expect(theirs.text.replace(shared.conversationId, "ID")).toBe(missing.text.replace(unknown, "ID"));
  });
});

async function callAction(name: keyof typeof actions, fixture: Fixture, auth: Record<string, string>): Promise<ActionResult<unknown>> {
  actionHeaders = new Headers(auth);
  const action = actions[name] as (...args: unknown[]) => Promise<ActionResult<unknown>>;
  const result = await action(...(ACTIONS[name].args?.(fixture) ?? []));
  // A turn streams after the action returns: read it to the end so it finishes here.
  if (result.ok && result.data instanceof ReadableStream) {
    const reader = (result.data as ReadableStream<unknown>).getReader();
    while (!(await reader.read()).done);
  }
  return result;
}

describe("every server action checks who is asking", () => {
  it("every exported action is in the matrix", () => {
    const exported = Object.keys(actions).filter((name) => typeof actions[name as keyof typeof actions] === "function");
    expect(exported.filter((name) => !(name in ACTIONS)), "add the action to ACTIONS").toEqual([]);
  });

  for (const [name, rule] of Object.entries(ACTIONS) as [keyof typeof actions, ActionCase][]) {
    const strangerExpects = { owned: "not_found", admin: "forbidden", user: "ok" }[rule.scope];
    it(`${name}: unauthorized without a session, ${strangerExpects} for another user, ok for the owner`, async () => {
      const fixture = rule.fresh ? await makeFixture() : shared;
      const anonymous = await callAction(name, fixture, {});
      expect(anonymous).toMatchObject({ ok: false, error: { code: "unauthorized" } });
      const stranger = await callAction(name, fixture, otherAuth);
      if (rule.scope === "user") {
        expect(stranger.ok, JSON.stringify(stranger)).toBe(true);
        expect(JSON.stringify(stranger)).not.toContain(fixture.conversationId);
      } else expect(stranger).toMatchObject({ ok: false, error: { code: strangerExpects } });
      if (rule.session) {
        const withToken = await callAction(name, fixture, ownerAuth);
        expect(withToken).toMatchObject({ ok: false, error: { code: "forbidden" } });
        expect(withToken.ok ? "" : withToken.error.message).toMatch(/signed-in browser/);
      }
      const mine = await callAction(name, fixture, rule.session ? { cookie: owner.cookie } : ownerAuth);
      expect(mine.ok, JSON.stringify(mine)).toBe(true);
    });
  }
});

/** Files under `dir` (relative to the repository), recursively, whose name passes `keep`. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "generated" || entry.name === "node_modules" ? [] : filesUnder(relative, keep);
    return keep(entry.name) ? [relative] : [];
  });
}

describe("the account and admin pages' actions", () => {
  for (const [file, listed] of Object.entries(PAGE_ACTIONS)) {
    it(`${file}: every action is listed; without a session unauthorized, with a token forbidden, a non-admin refused the admin's`, async () => {
      const pageActions = (await import(pathToFileURL(path.join(ROOT, file)).href)) as Record<string, (...args: unknown[]) => Promise<ActionResult<unknown>>>;
      expect(Object.keys(pageActions).filter((name) => typeof pageActions[name] === "function").sort()).toEqual(Object.keys(listed).sort());
      for (const [name, rule] of Object.entries(listed)) {
        const call = async (auth: Record<string, string>) => {
          actionHeaders = new Headers(auth);
          return pageActions[name]!(...rule.args);
        };
        expect(await call({}), name).toMatchObject({ ok: false, error: { code: "unauthorized" } });
        const withToken = await call(ownerAuth);
        expect(withToken, name).toMatchObject({ ok: false, error: { code: "forbidden" } });
        if (rule.admin) expect(await call(otherAuth), name).toMatchObject({ ok: false, error: { code: "forbidden" } });
      }
    });
  }
});

describe("no door outside the matrix", () => {
  it("every module with server actions is app/actions.ts (in the matrix) or lists its actions as public with a reason", async () => {
    const sources = ["app", "components", "lib"].flatMap((dir) => filesUnder(dir, (name) => /\.tsx?$/.test(name)));
    const withActions = sources.filter((file) => /["']use server["']/.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(withActions).toContain("app/actions.ts");
    expect(withActions.filter((file) => file !== "app/actions.ts" && !(file in PUBLIC_ACTIONS) && !(file in PAGE_ACTIONS)), "server actions outside the matrix").toEqual([]);
    for (const [file, listed] of Object.entries(PUBLIC_ACTIONS)) {
      const exports = (await import(pathToFileURL(path.join(ROOT, file)).href)) as Record<string, unknown>;
      const exported = Object.keys(exports).filter((name) => typeof exports[name] === "function");
      expect(exported.sort(), `${file}: list each action with its reason`).toEqual(Object.keys(listed).sort());
    }
  });

  it("every page resolves the signed-in user, or is declared public with a reason", () => {
    const pages = filesUnder("app", (name) => /^page\.(tsx|ts|jsx|js)$/.test(name));
    expect(pages.length).toBeGreaterThan(4);
    const unchecked = pages.filter((page) => !(page in PUBLIC_PAGES) && !/\brequirePageUser\(/.test(fs.readFileSync(path.join(ROOT, page), "utf8")));
    expect(unchecked, "call requirePageUser() (or list the page in PUBLIC_PAGES with a reason)").toEqual([]);
    for (const page of Object.keys(PUBLIC_PAGES)) expect(pages, `${page} is gone; remove it from PUBLIC_PAGES`).toContain(page);
  });
});
