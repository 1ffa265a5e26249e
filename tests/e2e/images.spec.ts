// Images for vision models in the browser: attach one, the model receives it as an image
// part, the message shows a thumbnail that opens it full size; the home composer takes
// files (a message of files only, named after the file); a model that takes no images
// refuses the upload with a clear message; the timeline marks a change of model.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { freshContext } from "./support/accounts";
import { MODEL_SERVER, newConversation, resetModelServer, saveTestSettings, screenshotPath, seriousAxeViolations, untilSettled } from "./support/helpers";
import { tinyPng } from "../support/tiny-image";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, {});
});

type Part = { type: string; text?: string; image_url?: { url: string; detail?: string } };
type Recorded = { kind: string; body: { model: string; messages: { role: string; content: string | Part[] | null }[] } };

async function lastChat(request: APIRequestContext): Promise<Recorded["body"]> {
  const { requests } = (await (await request.get(`${MODEL_SERVER}/__admin/requests`)).json()) as { requests: Recorded[] };
  return requests.filter((r) => r.kind === "chat").at(-1)!.body;
}

const PHOTO = { name: "harbour.png", mimeType: "image/png", buffer: Buffer.from(tinyPng(160, 90, [200, 80, 40])) };

async function thumbnailShown(page: Page) {
  const thumbnail = page.locator("[data-testid=message][data-role=user]").last().getByTestId("message-image");
  await expect(thumbnail).toBeVisible();
  const image = thumbnail.locator("img");
  await expect(image).toHaveAttribute("alt", "harbour.png");
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(160);
  return thumbnail;
}

test("attach an image: the vision model gets it as an image part, and the message shows a thumbnail that opens full size, also under a shared link", async ({ page, request, browser }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/");
  await newConversation(page);
  await page.getByTestId("attach-input").setInputFiles([PHOTO]);
  const chip = page.getByTestId("draft-attachment");
  await expect(chip).toHaveAttribute("data-state", "ready");
  await expect(chip).toContainText("255 tokens");

  await untilSettled(page, async () => {
    await page.getByTestId("composer").fill("What is in this picture?");
    await page.getByTestId("composer").press("Enter");
  });
  const body = await lastChat(request);
  const user = body.messages.filter((m) => m.role === "user").at(-1)!;
  expect(Array.isArray(user.content)).toBe(true);
  const parts = user.content as Part[];
  expect(parts[0]).toEqual({ type: "text", text: "What is in this picture?\n\n[image: harbour.png, 160×90]" });
  expect(parts[1]!.type).toBe("image_url");
  expect(parts[1]!.image_url!.url).toBe(`data:image/png;base64,${PHOTO.buffer.toString("base64")}`);

  const message = page.locator("[data-testid=message][data-role=user]").last();
  await expect(message).toContainText("What is in this picture?");
  // The line standing for the image is for the model; people see the thumbnail.
  await expect(message).not.toContainText("[image:");
  const thumbnail = await thumbnailShown(page);
  await expect(thumbnail).toHaveAttribute("href", /\/api\/attachments\/[^/]+\?view=inline$/);
  await thumbnail.click();
  const viewer = page.getByRole("dialog", { name: "harbour.png" });
  await expect(viewer).toBeVisible();
  await expect.poll(() => viewer.locator("img").evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(160);
  await page.screenshot({ path: screenshotPath("images-desktop-full") });
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();
  await page.screenshot({ path: screenshotPath("images-desktop") });
  expect(await seriousAxeViolations(page)).toEqual([]);

  // A signed-out reader of a shared link sees the thumbnail too, fetched through the link.
  await page.getByTestId("share-open").click();
  const dialog = page.getByTestId("share-dialog");
  await dialog.getByTestId("share-create").click();
  const url = await dialog.getByTestId("share-url").inputValue();
  const reader = await (await freshContext(browser)).newPage();
  await reader.goto(url);
  await expect(reader.getByTestId("shared-conversation")).toHaveAttribute("data-ready", "true");
  const shared = await thumbnailShown(reader);
  await expect(shared).toHaveAttribute("href", /\/api\/shared\/[^/]+\/attachments\/[^/]+\?view=inline$/);
  await reader.context().close();
});

test("at 390×844 the home composer takes an image alone: the conversation starts, is named after the file, and shows the thumbnail", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByTestId("attach-input").setInputFiles([PHOTO]);
  await expect(page.getByTestId("draft-attachment")).toContainText("harbour.png");
  await expect(page.getByTestId("send-button")).toBeEnabled();
  await page.screenshot({ path: screenshotPath("images-phone-home") });
  await page.getByTestId("send-button").click();
  await page.waitForURL(/\/c\//);
  await thumbnailShown(page);
  await expect(page.locator("[data-testid=message][data-role=assistant]").last()).toBeVisible();
  await expect(page.getByTestId("conversation-heading")).toHaveText("harbour.png");
  const user = (await lastChat(request)).messages.filter((m) => m.role === "user").at(-1)!;
  expect((user.content as Part[]).map((part) => part.type)).toEqual(["text", "image_url"]);
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  await page.screenshot({ path: screenshotPath("images-phone") });
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test("a model that takes no images refuses the upload and says why; the timeline marks the change of model, with the window the settings give it", async ({ page, request }) => {
  // The user's own window for the model: the line must say it, not the built-in table's 16K.
  await saveTestSettings(request, { contextWindowOverrides: { "gpt-3.5-turbo": 12_000 } });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/");
  const id = await newConversation(page);
  await untilSettled(page, async () => {
    await page.getByTestId("composer").fill("Hello");
    await page.getByTestId("composer").press("Enter");
  });
  const origin = new URL(page.url()).origin;
  const changed = await page.request.patch(`/api/conversations/${id}`, { data: { model: "gpt-3.5-turbo" }, headers: { origin } });
  expect(changed.status(), await changed.text()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("conversation")).toHaveAttribute("data-ready", "true");

  await page.getByTestId("attach-input").setInputFiles([PHOTO]);
  const chip = page.getByTestId("draft-attachment");
  await expect(chip).toHaveAttribute("data-state", "failed");
  await expect(chip.getByTestId("attachment-error")).toContainText("“harbour.png” is an image, and gpt-3.5-turbo does not take images");
  await page.getByRole("button", { name: "Remove harbour.png" }).click();

  await expect(page.getByTestId("model-change")).toHaveCount(0);
  await untilSettled(page, async () => {
    await page.getByTestId("composer").fill("Still there?");
    await page.getByTestId("composer").press("Enter");
  });
  await expect(page.getByTestId("model-change")).toHaveText(/Model changed to gpt-3\.5-turbo · window 12K/);
  await page.screenshot({ path: screenshotPath("model-change-desktop") });
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test("the admin marks a model as taking images: its conversations accept an image upload", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/admin");
  const section = page.getByTestId("admin-image-models");
  await section.getByTestId("admin-image-models-text").fill("gpt-3.5\n\ngpt-3.5");
  await section.getByTestId("admin-image-models-save").click();
  await expect(section.getByRole("status")).toHaveText(/Saved/);
  // Blank lines and repeats are dropped.
  await expect(section.getByTestId("admin-image-models-text")).toHaveValue("gpt-3.5");
  expect(await seriousAxeViolations(page)).toEqual([]);
  try {
    const id = await newConversation(page);
    const origin = new URL(page.url()).origin;
    expect((await page.request.patch(`/api/conversations/${id}`, { data: { model: "gpt-3.5-turbo" }, headers: { origin } })).status()).toBe(200);
    await page.reload();
    await page.getByTestId("attach-input").setInputFiles([PHOTO]);
    await expect(page.getByTestId("draft-attachment")).toHaveAttribute("data-state", "ready");
  } finally {
    await page.goto("/admin");
    await page.getByTestId("admin-image-models-text").fill("");
    await page.getByTestId("admin-image-models-save").click();
    await expect(page.getByTestId("admin-image-models").getByRole("status")).toHaveText(/Saved/);
  }
});
