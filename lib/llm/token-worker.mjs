// @ts-check
// A worker thread of ./token-pool.ts: counts one text. Loaded by Node itself (not
// bundled), so it is plain JavaScript and imports only plain JavaScript and tiktoken.
import { countText } from "./token-count.mjs";

/** @param {{ text: string, encoding: import("./token-count.d.mts").EncodingName }} task */
export default function count(task) {
  return countText(task.text, task.encoding);
}
