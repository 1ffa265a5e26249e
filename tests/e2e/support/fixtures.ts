// `test` for every spec: fails a test whose pages report a Content-Security-Policy
// violation in the browser console, so the policy (proxy.ts) is checked on every page
// the suite visits. Its `request` (the JSON API with the signed-in session's cookie)
// sends the app's Origin, as the page's own requests do: a change made with the cookie
// and no Origin is refused as cross-site (lib/http/origin.ts).
import { test as base, expect } from "@playwright/test";

export const test = base.extend<{ cspGuard: void }>({
  request: async ({ playwright, baseURL, storageState, extraHTTPHeaders }, provide) => {
    const context = await playwright.request.newContext({
      ...(baseURL ? { baseURL } : {}),
      ...(storageState ? { storageState } : {}),
      extraHTTPHeaders: { ...extraHTTPHeaders, ...(baseURL ? { origin: new URL(baseURL).origin } : {}) },
    });
    await provide(context);
    await context.dispose();
  },
  cspGuard: [
    async ({ context }, use) => {
      const violations: string[] = [];
      context.on("console", (message) => {
        if (message.type() === "error" && /Content.Security.Policy/i.test(message.text())) violations.push(message.text());
      });
      await use();
      expect(violations, "CSP violations in the browser console").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
