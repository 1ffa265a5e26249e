import { readFile } from "node:fs/promises";
import { expect, test } from "./support/fixtures";
import { newConversation, resetModelServer, scriptTurns, SMALL_WINDOW, saveTestSettings } from "./support/helpers";

test.beforeEach(async ({ request }) => {
  await resetModelServer(request);
  await saveTestSettings(request, SMALL_WINDOW);
});

test("export a conversation with a 2-level tree as JSON and Markdown, then import the JSON as a new conversation", async ({ page, request }) => {
  await page.goto("/");
  const id = await newConversation(page);
  await scriptTurns(request, id, Array.from({ length: 12 }, (_, i) => `Turn ${i + 1}: FACT k${i + 1}=v${i + 1} REPLY_WORDS=120`));
  await page.reload();
  await expect(page.locator('[data-testid=compaction-block][data-level="2"]').first()).toBeVisible();

  await page.getByTestId("export-toggle").click();
  const [markdownDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-markdown").click()]);
  const markdown = await readFile((await markdownDownload.path())!, "utf8");
  expect(markdown).toMatch(/<details>\n<summary>L2 summary/);
  expect(markdown).toContain("Turn 1: FACT k1=v1");

  await page.getByTestId("export-toggle").click();
  const [jsonDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-json").click()]);
  expect(jsonDownload.suggestedFilename()).toMatch(/\.strata\.json$/);
  const file = (await jsonDownload.path())!;
  const exported = JSON.parse(await readFile(file, "utf8")) as { conversation: { title: string }; compactions: { level: number }[]; messages: unknown[] };
  expect(exported.compactions.some((c) => c.level === 2)).toBe(true);

  await page.getByTestId("import-file").setInputFiles(file);
  await expect(page).not.toHaveURL(new RegExp(`/c/${id}$`));
  await expect(page).toHaveURL(/\/c\/[0-9a-f-]{36}$/);
  const importedId = page.url().split("/c/")[1]!;
  const level2 = page.locator('[data-testid=compaction-block][data-level="2"]').first();
  await expect(level2).toBeVisible();
  await level2.getByTestId("compaction-toggle").first().click();
  const level1 = level2.getByTestId("compaction-children").first().locator('[data-testid=compaction-block][data-level="1"]').first();
  await level1.getByTestId("compaction-toggle").click();
  await expect(level1.getByTestId("compaction-children").getByTestId("message").first()).toContainText("Turn 1: FACT k1=v1");

  // The copy is marked in its title, shown in the heading and the sidebar.
  const copyTitle = `${exported.conversation.title} (imported)`;
  await expect(page.getByTestId("conversation-heading")).toHaveText(copyTitle);
  // The copy exports to the same file, apart from the export time and that mark.
  const again = (await (await request.get(`/api/conversations/${importedId}/export?format=json`)).json()) as Record<string, unknown>;
  expect({ ...again, exportedAt: null }).toEqual({ ...exported, exportedAt: null, conversation: { ...exported.conversation, title: copyTitle } });

  // A broken file is refused with a clear message.
  await page.getByTestId("import-file").setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from('{"format":"other"}') });
  await expect(page.getByTestId("import-error")).toContainText("The file cannot be imported");
  // A file that is neither an export nor a transcript is refused in the browser, saying what is taken.
  await page.getByTestId("import-file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just some notes") });
  await expect(page.getByTestId("import-error")).toHaveText("“notes.txt” is neither a Strata export (the .json file Export gives) nor a Markdown transcript (.md): nothing was imported.");
  // A .json file that is not JSON says so as a file, not as a request body.
  await page.getByTestId("import-file").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from("just some notes") });
  await expect(page.getByTestId("import-error")).toHaveText("The file is not valid JSON: an export is the .json file Export gives.");
});
