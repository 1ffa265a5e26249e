// `test` for every spec: fails a test whose pages report a Content-Security-Policy
// violation in the browser console, so the policy (proxy.ts) is checked on every page
// the suite visits.
import { test as base, expect } from "@playwright/test";

export const test = base.extend<{ cspGuard: void }>({
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
