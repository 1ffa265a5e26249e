// Measures, in the browser, the time from Enter in the composer to (a) the user's
// message on screen and (b) the first streamed token of the reply: production build
// (next start), the demo/test model at zero latency. Figures go to docs/benchmarks.md.
// Runs only when asked: E2E_MEASURE_LATENCY=1 npx playwright test tests/e2e/chat-latency.spec.ts
import { expect, test } from "./support/fixtures";
import { newConversation, resetModelServer, saveTestSettings, untilSettled } from "./support/helpers";

const RUNS = Number(process.env.E2E_LATENCY_RUNS ?? 12);

test.skip(process.env.E2E_MEASURE_LATENCY !== "1", "a measurement, not a check: E2E_MEASURE_LATENCY=1 runs it");

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

test("Enter → own message visible → first streamed token", async ({ page, request }) => {
  test.setTimeout(180_000);
  await resetModelServer(request);
  await saveTestSettings(request, {});
  await page.goto("/");
  await newConversation(page);
  const visible: number[] = [];
  const firstToken: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const text = `Latency run ${run} REPLY_WORDS=40`;
    await page.getByTestId("composer").fill(text);
    // Observers start before Enter; all three times are the page's own clock.
    const timing = page.evaluate(
      (expected) =>
        new Promise<{ visible: number; token: number }>((resolve) => {
          const composer = document.querySelector<HTMLTextAreaElement>("[data-testid=composer]")!;
          let pressed = 0;
          let seen = 0;
          composer.addEventListener("keydown", (event) => {
            if (event.key === "Enter") pressed = performance.now();
          }, { capture: true, once: true });
          const observer = new MutationObserver(() => {
            if (!pressed) return;
            if (!seen) {
              const mine = [...document.querySelectorAll("[data-testid=message][data-role=user]")].some((node) => node.textContent?.includes(expected));
              if (mine) seen = performance.now();
            }
            const reply = document.querySelector("[data-testid=streaming-reply]");
            const streamed = reply && !/Thinking|Waiting for the model/.test(reply.textContent ?? "") && (reply.textContent ?? "").trim().length > 0;
            const done = [...document.querySelectorAll("[data-testid=message][data-role=assistant]")].length > 0 && !reply;
            if (seen && (streamed || done)) {
              observer.disconnect();
              resolve({ visible: seen - pressed, token: performance.now() - pressed });
            }
          });
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        }),
      text,
    );
    await untilSettled(page, () => page.getByTestId("composer").press("Enter"));
    const measured = await timing;
    visible.push(measured.visible);
    firstToken.push(measured.token);
  }
  expect(visible).toHaveLength(RUNS);
  const line = (name: string, values: number[]) =>
    `${name}: median ${percentile(values, 50).toFixed(0)} ms, p90 ${percentile(values, 90).toFixed(0)} ms, min ${Math.min(...values).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`;
  console.log(`chat latency over ${RUNS} sends\n${line("Enter → own message visible", visible)}\n${line("Enter → first streamed token", firstToken)}`);
});
