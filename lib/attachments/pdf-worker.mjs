// @ts-check
// A worker thread of ./pdf.ts: the text layer of one PDF, page by page, with unpdf
// (Mozilla's pdf.js packaged for servers: no canvas, no native code). Loaded by Node
// itself (not bundled), so it is plain JavaScript importing only unpdf.
import { extractText, getDocumentProxy } from "unpdf";

/**
 * @param {{ bytes: Uint8Array }} task
 * @returns {Promise<{ pages: string[], total: number }>}
 */
export default async function readPdf(task) {
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const document = await getDocumentProxy(new Uint8Array(task.bytes), { useSystemFonts: false, verbosity: 0 });
  const result = await extractText(document, { mergePages: false });
  return { pages: result.text, total: result.totalPages };
}
