// @ts-check
// A worker thread of ./token-pool.ts: counts one text. Loaded by Node itself (not
// bundled), so it is plain JavaScript and imports only plain JavaScript and tiktoken.
import { countText, warmRanks } from "./token-count.mjs";

// Ready before the first long text arrives (a task that comes sooner reads the rest itself).
void warmRanks("o200k_base");

/** @param {{ text: string, encoding: import("./token-count.d.mts").EncodingName }} task */
export default function count(task) {
  return countText(task.text, task.encoding);
}
