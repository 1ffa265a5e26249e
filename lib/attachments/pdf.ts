// PDF → text with unpdf (Mozilla's pdf.js, packaged for servers: no canvas, no worker,
// no native code). Run once, when the file is uploaded; the text is stored beside the bytes.
import { extractText, getDocumentProxy } from "unpdf";

export type PdfText = { ok: true; text: string; pages: number } | { ok: false; reason: string };

/** The text layer of a PDF, pages separated by a blank line; a clear reason when there is none. */
export async function pdfText(name: string, bytes: Uint8Array): Promise<PdfText> {
  let pages: string[];
  let total: number;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    const document = await getDocumentProxy(new Uint8Array(bytes), { useSystemFonts: false, verbosity: 0 });
    const result = await extractText(document, { mergePages: false });
    pages = result.text;
    total = result.totalPages;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `“${name}” could not be read as a PDF (${detail}).` };
  }
  const text = pages
    .map((page) => page.trim())
    .filter((page) => page.length > 0)
    .join("\n\n");
  if (text.trim().length === 0) {
    return {
      ok: false,
      reason: `“${name}” has no text layer (a scanned or image-only PDF): Strata cannot read its text. Attach a PDF with selectable text, or the text itself.`,
    };
  }
  return { ok: true, text, pages: total };
}
