// Types of token-worker.mjs (plain JavaScript: Node loads it in worker threads without a TypeScript loader).
import type { EncodingName } from "./token-count.d.mts";

export default function count(task: { text: string; encoding: EncodingName }): number;
