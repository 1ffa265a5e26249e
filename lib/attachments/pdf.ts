// PDF → text, run once when the file is uploaded; the text is stored beside the bytes.
// Reading a PDF is synchronous work in pdf.js that grows with the file: a 10 MB PDF of
// text (the default upload limit) took about 5 s, during which no other request of any
// user was served. So it runs on a worker thread, within a time and a memory bound: a
// file that needs more ends its thread, not the server, and the upload gets the reason.
import path from "node:path";
import { lazyPool } from "../workers/pool";
import readPdf from "./pdf-worker.mjs";

export type PdfText = { ok: true; text: string; pages: number } | { ok: false; reason: string };

type ReadTask = { bytes: Uint8Array };
type ReadResult = Awaited<ReturnType<typeof readPdf>>;

/** How long one PDF may take to be read, waiting for a thread included. */
export const PDF_READ_TIMEOUT_MS = 30_000;
/** The heap one thread may use while it reads a PDF (a file that needs more is refused). */
const PDF_READ_HEAP_MB = 1024;

// No thread is kept warm: PDFs are rare next to turns, and a thread starts in milliseconds.
const pdfPool = lazyPool<ReadTask, ReadResult>("pdf", path.join(process.cwd(), "lib", "attachments", "pdf-worker.mjs"), {
  minThreads: 0,
  resourceLimits: { maxOldGenerationSizeMb: PDF_READ_HEAP_MB },
});

type Read = { ok: true; result: ReadResult } | { ok: false; reason: string };

async function read(name: string, bytes: Uint8Array, timeoutMs: number): Promise<Read> {
  const workers = pdfPool.get();
  try {
    // Without the worker file (an unusual deployment) the file is read on this thread.
    const result = workers ? await workers.run({ bytes }, { signal: AbortSignal.timeout(timeoutMs) }) : await readPdf({ bytes });
    return { ok: true, result };
  } catch (error) {
    return { ok: false, reason: unreadable(name, error, timeoutMs) };
  }
}

function unreadable(name: string, error: unknown, timeoutMs: number): string {
  const code = (error as { code?: unknown } | null)?.code;
  const errorName = (error as { name?: unknown } | null)?.name;
  if (errorName === "AbortError" || errorName === "TimeoutError") {
    return `“${name}” took longer than ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} to read, so Strata stopped reading it. Attach a smaller PDF (fewer pages), or its text.`;
  }
  if (code === "ERR_WORKER_OUT_OF_MEMORY") {
    return `“${name}” needs more memory to read than Strata gives one file (${PDF_READ_HEAP_MB} MB). Attach a smaller PDF (fewer pages), or its text.`;
  }
  const detail = error instanceof Error ? error.message : String(error);
  return `“${name}” could not be read as a PDF (${detail}).`;
}

/** The text layer of a PDF, pages separated by a blank line; a clear reason when there is none. */
export async function pdfText(name: string, bytes: Uint8Array, options: { timeoutMs?: number } = {}): Promise<PdfText> {
  const outcome = await read(name, bytes, options.timeoutMs ?? PDF_READ_TIMEOUT_MS);
  if (!outcome.ok) return outcome;
  const text = outcome.result.pages
    .map((page) => page.trim())
    .filter((page) => page.length > 0)
    .join("\n\n");
  if (text.trim().length === 0) {
    return {
      ok: false,
      reason: `“${name}” has no text layer (a scanned or image-only PDF): Strata cannot read its text. Attach a PDF with selectable text, or the text itself.`,
    };
  }
  return { ok: true, text, pages: outcome.result.total };
}

/** Ends the reading threads (tests, shutdown). */
export function closePdfPool(): Promise<void> {
  return pdfPool.close();
}
