import type { APIRequestContext, Page } from "@playwright/test";
import { tinyPdf } from "../support/tiny-pdf";
import { expect, test } from "./support/fixtures";
import { MODEL_SERVER, newConversation, resetModelServer, saveTestSettings, screenshotPath, seriousAxeViolations, untilSettled } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

const NOTES = "# Packing list\n\n- rain jacket\n- the blue thermos numbered 5521\n";

type Recorded = { kind: string; body: { messages: { role: string; content: string | null }[] } };

async function lastUserContent(request: APIRequestContext): Promise<string> {
  const { requests } = (await (await request.get(`${MODEL_SERVER}/__admin/requests`)).json()) as { requests: Recorded[] };
  const chat = requests.filter((r) => r.kind === "chat").at(-1);
  return chat?.body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
}

/** Drops files on the composer as a browser does (a DataTransfer with File objects). */
async function dropFiles(page: Page, files: { name: string; text: string }[]) {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const file of list) data.items.add(new File([file.text], file.name));
    return data;
  }, files);
  const form = page.locator("form").filter({ has: page.getByTestId("composer") });
  await form.dispatchEvent("dragover", { dataTransfer: transfer });
  await form.dispatchEvent("drop", { dataTransfer: transfer });
}

test("attach a Markdown file and a PDF: chips with size and tokens, removable before sending; sent, the model gets their text and the message keeps a download chip each", async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/");
  await newConversation(page);
  await page.getByTestId("attach-input").setInputFiles([
    { name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from(NOTES) },
    { name: "extra.csv", mimeType: "text/csv", buffer: Buffer.from("a,b\n1,2\n") },
    // A PDF: its text layer is read on upload (lib/attachments/pdf.ts) and sent as its text.
    { name: "route.pdf", mimeType: "application/pdf", buffer: Buffer.from(tinyPdf(["The ferry leaves pier 14 at 07:40."])) },
  ]);
  const chips = page.getByTestId("draft-attachment");
  await expect(chips).toHaveCount(3);
  await expect(chips.nth(2)).toHaveAttribute("data-state", "ready");
  await expect(chips.nth(2)).toContainText(/route\.pdf.*tokens/);
  await expect(chips.first()).toHaveAttribute("data-state", "ready");
  await expect(chips.first()).toContainText("notes.md");
  await expect(chips.first()).toContainText(/\d+ B · \d+ tokens/);
  await page.getByRole("button", { name: "Remove extra.csv" }).click();
  await expect(chips).toHaveCount(2);

  await untilSettled(page, async () => {
    await page.getByTestId("composer").fill("What is on my list?");
    await page.getByTestId("composer").press("Enter");
  });
  await expect(page.getByTestId("draft-attachment")).toHaveCount(0);
  const seen = await lastUserContent(request);
  expect(seen).toContain("What is on my list?");
  expect(seen).toContain("Attached file: notes.md");
  expect(seen).toContain("the blue thermos numbered 5521");
  expect(seen).toContain("Attached file: route.pdf");
  expect(seen).toContain("The ferry leaves pier 14 at 07:40.");
  expect(seen).not.toContain("extra.csv");

  const userMessage = page.locator("[data-testid=message][data-role=user]").last();
  await expect(userMessage).toContainText("What is on my list?");
  await expect(userMessage.getByTestId("message-attachment")).toHaveCount(2);
  const chip = userMessage.getByTestId("message-attachment").first();
  await expect(chip).toContainText("notes.md");
  // The file's text is in the message (the model saw it) but shown only on request.
  await expect(userMessage).not.toContainText("blue thermos");
  await userMessage.getByTestId("show-attachment-text").first().click();
  await expect(userMessage.getByTestId("attachment-text").first()).toContainText("blue thermos numbered 5521");
  await expect(page.locator("[data-testid=message][data-role=assistant]").last()).toContainText("you said");

  // The chip downloads the original file, as a download.
  const href = await chip.getAttribute("href");
  const download = await page.request.get(href!);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toMatch(/^attachment;/);
  expect(await download.text()).toBe(NOTES);

  // After a reload the chip is still there.
  await page.reload();
  await expect(page.locator("[data-testid=message][data-role=user]").last().getByTestId("message-attachment").last()).toContainText("route.pdf");
  await page.screenshot({ path: screenshotPath("attachments-desktop") });
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test("at 390×844: dropped files become chips, a refused file says why, and the sent message fits the screen", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await newConversation(page);
  await dropFiles(page, [
    { name: "a-rather-long-file-name-for-a-small-screen.md", text: "Phone FACT code=8812" },
    { name: "empty.txt", text: "" },
  ]);
  const chips = page.getByTestId("draft-attachment");
  await expect(chips).toHaveCount(2);
  await expect(chips.nth(1)).toHaveAttribute("data-state", "failed");
  await expect(chips.nth(1).getByTestId("attachment-error")).toContainText("is empty");
  await expect(chips.nth(0)).toHaveAttribute("data-state", "ready");
  await page.screenshot({ path: screenshotPath("attachments-phone-composer") });
  await page.getByRole("button", { name: "Remove empty.txt" }).click();

  await untilSettled(page, async () => {
    await page.getByTestId("composer").fill("Read it");
    await page.getByTestId("send-button").click();
  });
  expect(await lastUserContent(request)).toContain("Phone FACT code=8812");
  await expect(page.locator("[data-testid=message][data-role=user]").last().getByTestId("message-attachment")).toBeVisible();
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  await page.screenshot({ path: screenshotPath("attachments-phone") });
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test("a file over the attachment limit is refused in the browser, before any of it is sent, in a conversation and on the home page", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const uploads: string[] = [];
  page.on("request", (sent) => {
    if (sent.method() === "POST" && sent.url().includes("/attachments")) uploads.push(sent.url());
  });
  // One byte over the default limit (STRATA_ATTACHMENT_MAX_BYTES, 10 MB).
  const huge = { name: "huge.log", mimeType: "text/plain", buffer: Buffer.alloc(10 * 1024 * 1024 + 1, "a") };

  await page.goto("/");
  await page.getByTestId("attach-input").setInputFiles([huge]);
  const homeChip = page.getByTestId("draft-attachment");
  await expect(homeChip).toHaveAttribute("data-state", "failed");
  await expect(homeChip.getByTestId("attachment-error")).toContainText("“huge.log” is larger than the attachment limit of 10.0 MB");
  // A message of that file alone has nothing to send.
  await expect(page.getByTestId("send-button")).toBeDisabled();

  await newConversation(page);
  await page.getByTestId("attach-input").setInputFiles([huge, { name: "small.md", mimeType: "text/markdown", buffer: Buffer.from("fits") }]);
  const chips = page.getByTestId("draft-attachment");
  await expect(chips).toHaveCount(2);
  await expect(chips.nth(0)).toHaveAttribute("data-state", "failed");
  await expect(chips.nth(0).getByTestId("attachment-error")).toContainText("larger than the attachment limit of 10.0 MB");
  await expect(chips.nth(1)).toHaveAttribute("data-state", "ready");
  expect(uploads).toHaveLength(1);
});
