// PUT /api/settings with some fields changes only those: the others keep their stored
// values (they used to fall back to the defaults).
import { beforeAll, describe, expect, it } from "vitest";
import * as settingsRoute from "../../app/api/settings/route";
import { DEFAULT_SETTINGS, type CompressionSettings } from "../../lib/compression/settings";
import { setupHarness } from "../support/harness";
import { bearer } from "../support/accounts";

const h = setupHarness();
let auth: { authorization: string };
beforeAll(async () => {
  auth = await bearer(h.user);
});

const request = (method: string, body?: unknown) =>
  new Request("http://localhost/api/settings", {
    method,
    headers: { "content-type": "application/json", ...auth },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function stored(): Promise<CompressionSettings> {
  return ((await (await settingsRoute.GET(request("GET"))).json()) as { settings: CompressionSettings }).settings;
}

describe("PUT /api/settings", () => {
  it("changes only the settings it names", async () => {
    const custom = { ...DEFAULT_SETTINGS, keepRecentCount: 7, contextWindowOverrides: { "my-model": 32_000 }, strategy: "structured" as const };
    expect((await settingsRoute.PUT(request("PUT", custom))).status).toBe(200);

    const partial = await settingsRoute.PUT(request("PUT", { threshold: 0.7 }));
    expect(partial.status).toBe(200);
    expect(await stored()).toEqual({ ...custom, threshold: 0.7 });

    const patched = await settingsRoute.PATCH(request("PATCH", { keepRecentCount: 5 }));
    expect(patched.status).toBe(200);
    expect(await stored()).toEqual({ ...custom, threshold: 0.7, keepRecentCount: 5 });
  });

  it("validates the merged result as a whole and refuses unknown names, changing nothing", async () => {
    expect((await settingsRoute.PUT(request("PUT", { ...DEFAULT_SETTINGS, threshold: 0.8 }))).status).toBe(200);
    const before = await stored();
    const crossField = await settingsRoute.PUT(request("PUT", { preemptiveThreshold: 0.85 }));
    expect(crossField.status).toBe(400);
    const unknown = await settingsRoute.PUT(request("PUT", { treshold: 0.7 }));
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe("Unknown setting: treshold.");
    const notObject = await settingsRoute.PUT(request("PUT", [1, 2]));
    expect(notObject.status).toBe(400);
    expect(await stored()).toEqual(before);
  });
});
