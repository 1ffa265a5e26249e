// Issue 25, item 2: one user's context-window overrides must not stop the server. The
// hostile user sends 10,000 overrides (149 KB; it froze the server 42 s on one view of
// /settings) and then views the settings page, at the bound's 200 overrides and with a
// 10,000-entry list stored before the bound existed; meanwhile another user's turn
// and GET /api/health keep being answered within a second.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import * as settingsRoute from "../../app/api/settings/route";
import * as ops from "../../lib/chat/operations";
import { SettingsForm } from "../../components/settings/SettingsForm";
import { setupHarness } from "./support/harness";
import { bystander, probeWhile, type Bystander } from "./support/bystander";
import { bearer, signUp, uniqueEmail, type TestUser } from "../support/accounts";

const h = setupHarness();
let hostile: TestUser;
let hostileAuth: { authorization: string };
let other: Bystander;

const overrides = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`local-model-${index}:latest`, 8192 + index]));

beforeAll(async () => {
  hostile = await signUp(uniqueEmail("overrides"));
  hostileAuth = await bearer(hostile);
  other = await bystander();
});

/** The settings page as the server renders it for `user`. */
async function viewSettings(user: TestUser): Promise<string> {
  const form = await ops.settingsForm(user);
  return renderToStaticMarkup(
    createElement(SettingsForm, {
      initialSettings: form.settings,
      defaults: form.defaults,
      models: null,
      defaultModel: "gpt-4o-mini",
      overheadTokens: { plain: 0, withHistoryTools: 0 },
      save: async () => ({ ok: true as const, data: form.settings }),
    }),
  );
}

describe("context-window overrides under load", () => {
  it("10,000 overrides sent and the settings page viewed: another user is answered within 1 s", async () => {
    const hostileWork = (async () => {
      const body = JSON.stringify({ contextWindowOverrides: overrides(10_000) });
      expect(body.length).toBeGreaterThan(140_000);
      const sent = await settingsRoute.PUT(
        new Request("http://127.0.0.1/api/settings", { method: "PUT", headers: { "content-type": "application/json", ...hostileAuth }, body }),
      );
      expect(sent.status).toBe(400);
      // The most the bound lets through, viewed a few times.
      await ops.saveSettings(hostile, { ...(await ops.getSettings(hostile)), contextWindowOverrides: overrides(200) });
      for (let view = 0; view < 3; view++) expect(await viewSettings(hostile)).toContain("local-model-199:latest");
      // A list stored before the bound existed is left out, and the page still renders.
      await h.db.userSettings.update({ where: { userId: hostile.id }, data: { values: { contextWindowOverrides: overrides(10_000) } } });
      expect(await viewSettings(hostile)).toContain('data-testid="settings-form"');
    })();
    const seen = await probeWhile(other, hostileWork, 2);
    await hostileWork;
    expect(seen.failures).toEqual([]);
    expect(Math.max(...seen.health)).toBeLessThan(1000);
    expect(Math.max(...seen.turns)).toBeLessThan(1000);
  });
});
