// Types of pdf-worker.mjs (plain JavaScript: Node loads it in worker threads without a TypeScript loader).
export default function readPdf(task: { bytes: Uint8Array }): Promise<{ pages: string[]; total: number }>;
