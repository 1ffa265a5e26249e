// Bounds on what a request may hold (issue 25, items 2, 8, 9 and 13), through the route
// handlers and the server operations: each refusal is a 400 naming the limit, nothing is
// stored, and what was stored before a bound existed still loads.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import * as settingsRoute from "../../app/api/settings/route";
import * as conversationRoute from "../../app/api/conversations/[id]/route";
import * as messagesRoute from "../../app/api/conversations/[id]/messages/route";
import * as childrenRoute from "../../app/api/compactions/[id]/children/route";
import * as importRoute from "../../app/api/conversations/import/route";
import * as ops from "../../lib/chat/operations";
import { DEFAULT_SETTINGS, MAX_CONTEXT_WINDOW_OVERRIDES, type CompressionSettings } from "../../lib/compression/settings";
import { MAX_INPUT_DEPTH } from "../../lib/errors";
import { SettingsForm } from "../../components/settings/SettingsForm";
import { refusal, rowCounts, send, setupHarness } from "../support/harness";
import { bearer } from "../support/accounts";

const h = setupHarness();
const BASE = "http://127.0.0.1/api";
const INT4_MAX = 2 ** 31 - 1;
let auth: { authorization: string };
let conversationId = "";

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const request = (method: string, url: string, body?: string | Uint8Array<ArrayBuffer>) =>
  new Request(url, { method, headers: { "content-type": "application/json", ...auth }, ...(body === undefined ? {} : { body }) });
const putSettings = (body: string) => settingsRoute.PUT(request("PUT", `${BASE}/settings`, body));
const postMessage = (body: unknown) =>
  messagesRoute.POST(
    request("POST", `${BASE}/conversations/${conversationId}/messages`, typeof body === "string" ? body : JSON.stringify(body)),
    params(conversationId),
  );

async function refused(response: Response, message: RegExp): Promise<void> {
  const body = (await response.json()) as { error?: { message?: string } };
  expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(400);
  expect(body.error?.message).toMatch(message);
}

const overrides = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`local-model-${index}`, 8192]));
/** `[[[…"x"…]]]`, `depth` arrays deep, as JSON text. */
const nested = (depth: number) => `${"[".repeat(depth)}"x"${"]".repeat(depth)}`;

beforeAll(async () => {
  auth = await bearer(h.user);
  conversationId = (await ops.createConversation(h.user, { title: "bounds", model: "gpt-4o-mini" })).id;
  await send(conversationId, "Hello there.");
});

describe("a refused setting, as the API answers it", () => {
  it("names the field and what to change, in words, per field too", async () => {
    const response = await putSettings(JSON.stringify({ threshold: 5 }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "invalid_input", message: "threshold: Must be at most 1.", fields: { threshold: ["Must be at most 1."] } },
    });
  });
});

describe("context-window overrides (item 2)", () => {
  it(`refuses 10,000 overrides with a 400 naming the limit of ${MAX_CONTEXT_WINDOW_OVERRIDES}, storing nothing`, async () => {
    const before = await rowCounts(h.db);
    await refused(await putSettings(JSON.stringify({ contextWindowOverrides: overrides(10_000) })), /At most 200 context-window overrides/);
    await refused(await putSettings(JSON.stringify({ ...DEFAULT_SETTINGS, contextWindowOverrides: overrides(201) })), /At most 200 context-window overrides/);
    // The server actions of the settings page and of the admin's defaults validate the same way.
    expect((await refusal(ops.saveSettings(h.user, { ...DEFAULT_SETTINGS, contextWindowOverrides: overrides(10_000) }))).message).toMatch(/At most 200/);
    const admin = { ...h.user, role: "admin" as const };
    expect((await refusal(ops.saveDefaults(admin, { ...DEFAULT_SETTINGS, contextWindowOverrides: overrides(10_000) }))).message).toMatch(/At most 200/);
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("accepts 200 overrides and refuses a model name over 200 characters", async () => {
    expect((await putSettings(JSON.stringify({ contextWindowOverrides: overrides(200) }))).status).toBe(200);
    // Real ids are well below it: OpenRouter's, a local GGUF tag.
    const real = { "meta-llama/llama-3.1-405b-instruct:free": 131_072, "hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M": 8192 };
    expect((await putSettings(JSON.stringify({ contextWindowOverrides: real }))).status).toBe(200);
    await refused(await putSettings(JSON.stringify({ contextWindowOverrides: { ["m".repeat(201)]: 8192 } })), /Model names are at most 200 characters/);
  });

  it("still loads settings stored with more overrides than the bound: the list is left out and reported", async () => {
    await h.db.userSettings.update({ where: { userId: h.user.id }, data: { values: { keepRecentCount: 7, contextWindowOverrides: overrides(10_000) } } });
    const response = await settingsRoute.GET(request("GET", `${BASE}/settings`));
    expect(response.status).toBe(200);
    const { settings } = (await response.json()) as { settings: CompressionSettings };
    expect(settings.keepRecentCount).toBe(7);
    expect(settings.contextWindowOverrides).toEqual({});
    const resolved = await ops.conversationSettings(h.user, conversationId);
    expect(resolved.ignored).toContainEqual({ name: "contextWindowOverrides", source: "user" });
    // The settings page renders from it.
    const form = await ops.settingsForm(h.user);
    const html = renderToStaticMarkup(
      createElement(SettingsForm, { ...form, initialSettings: form.settings, models: null, defaultModel: "gpt-4o-mini", overheadTokens: { plain: 0, withHistoryTools: 0 }, save: async () => ({ ok: true as const, data: form.settings }) }),
    );
    expect(html).toContain('data-testid="settings-form"');
  });
});

describe("sequence numbers (item 8)", () => {
  const tooBig = /at most 2,147,483,647/;

  it("refuses seqs past 2^31 - 1 with a 400 in every route and operation that takes one", async () => {
    const before = await rowCounts(h.db);
    await refused(await postMessage({ editSeq: 2 ** 31, content: "x" }), tooBig);
    await refused(await postMessage({ regenerateSeq: 2 ** 31 }), tooBig);
    await refused(await postMessage({ continueSeq: 2 ** 40 }), tooBig);
    await refused(await messagesRoute.GET(request("GET", `${BASE}/conversations/${conversationId}/messages?beforeSeq=2147483648`), params(conversationId)), tooBig);
    const compactionId = "0190a000-0000-7000-8000-000000000000";
    await refused(await childrenRoute.GET(request("GET", `${BASE}/compactions/${compactionId}/children?afterSeq=4294967296`), params(compactionId)), tooBig);
    expect((await refusal(ops.pinMessage(h.user, { conversationId, seq: 2 ** 31, pinned: true }))).message).toMatch(tooBig);
    expect((await refusal(ops.applyProposal(h.user, { conversationId, summary: "s", fromSeq: 1, toSeq: 2 ** 31 }))).message).toMatch(tooBig);
    expect((await refusal(ops.compactionChildren(h.user, { compactionId, afterSeq: 2 ** 31 }))).message).toMatch(tooBig);
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("answers the largest seq as an unknown message, not an error", async () => {
    const response = await postMessage({ regenerateSeq: INT4_MAX });
    expect(response.status).toBe(404);
    expect((await refusal(ops.pinMessage(h.user, { conversationId, seq: INT4_MAX, pinned: true }))).status).toBe(404);
  });
});

describe("nesting depth (item 9)", () => {
  const tooDeep = new RegExp(`nested deeper than ${MAX_INPUT_DEPTH} levels`);

  it.each([10_000, 100_000])("refuses a body nested %i levels deep with a 400, in settings and imports", async (depth) => {
    const before = await rowCounts(h.db);
    await refused(await putSettings(`{"customPrompt": ${nested(depth)}}`), tooDeep);
    await refused(await importRoute.POST(request("POST", `${BASE}/conversations/import`, `{"format": ${nested(depth)}}`)), tooDeep);
    await refused(await postMessage(`{"content": ${nested(depth)}}`), tooDeep);
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it.each([10_000, 100_000])("refuses a value nested %i levels deep given to a server operation (no JSON body to check)", async (depth) => {
    const value = JSON.parse(nested(depth)) as unknown;
    expect((await refusal(ops.updateSettings(h.user, { customPrompt: value }))).message).toMatch(tooDeep);
    expect((await refusal(ops.importConversation(h.user, { format: "strata.conversation", version: 1, sections: value }))).status).toBe(400);
  });

  it("accepts brackets inside strings, however many", async () => {
    const response = await conversationRoute.PATCH(
      request("PATCH", `${BASE}/conversations/${conversationId}`, JSON.stringify({ title: `${"[{".repeat(90)}"\\` })),
      params(conversationId),
    );
    expect(response.status).toBe(200);
  });
});

describe("setting names and text encoding (item 13)", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])("refuses the setting name %s with a 400", async (name) => {
    const before = await rowCounts(h.db);
    await refused(await putSettings(`{"${name}": {"threshold": 0.5}, "keepRecentCount": 3}`), new RegExp(`Unknown setting: ${name}`));
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("refuses a body that is not valid UTF-8 instead of storing U+FFFD", async () => {
    const before = await rowCounts(h.db);
    const utf8 = (text: string) => new TextEncoder().encode(text);
    const withInvalidByte = (json: string): Uint8Array<ArrayBuffer> => Uint8Array.from([...utf8(json.slice(0, -2)), 0xff, ...utf8(json.slice(-2))]);
    await refused(
      await conversationRoute.PATCH(request("PATCH", `${BASE}/conversations/${conversationId}`, withInvalidByte('{"title": "caf"}')), params(conversationId)),
      /not valid UTF-8/,
    );
    await refused(
      await messagesRoute.POST(request("POST", `${BASE}/conversations/${conversationId}/messages`, withInvalidByte('{"content": "caf"}')), params(conversationId)),
      /not valid UTF-8/,
    );
    await refused(await settingsRoute.PUT(request("PUT", `${BASE}/settings`, withInvalidByte('{"customPrompt": "caf"}'))), /not valid UTF-8/);
    expect(await rowCounts(h.db)).toEqual(before);
  });

  it("refuses a lone surrogate in every text field, as in a message", async () => {
    const before = await rowCounts(h.db);
    const lone = /lone surrogate/;
    // JSON escapes: the body is valid UTF-8, the string is not storable.
    await refused(await conversationRoute.PATCH(request("PATCH", `${BASE}/conversations/${conversationId}`, '{"title": "a\\ud800b"}'), params(conversationId)), lone);
    await refused(await conversationRoute.PATCH(request("PATCH", `${BASE}/conversations/${conversationId}`, '{"systemPrompt": "\\udc00"}'), params(conversationId)), lone);
    await refused(await postMessage('{"content": "a\\ud83d"}'), lone);
    await refused(await putSettings('{"customPrompt": "x\\ud800"}'), lone);
    await refused(await putSettings('{"contextWindowOverrides": {"m\\udfff": 8192}}'), lone);
    expect((await refusal(ops.createConversation(h.user, { title: "t\uD800" }))).message).toMatch(lone);
    expect(await rowCounts(h.db)).toEqual(before);
  });
});
