// The fault suite uses the shared harness; its tests set their own settings and
// server state, so nothing is reset between them.
import { setupHarness as sharedHarness, type Harness } from "../../support/harness";
import type { TestServerOptions } from "../../support/test-model";

export { collect, rowCounts, send, saveTestSettings as applySettings } from "../../support/harness";

export function setupHarness(options: TestServerOptions = {}): Harness {
  return sharedHarness({ ...options, resetEachTest: false });
}
