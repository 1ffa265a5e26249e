// Imported first by the scripts a newcomer runs (`npm start`, and `prisma:generate`,
// which `npm run dev` and `npm test` run first). Dependencies declare Node 22 or newer
// (the openai client, the test runner), but npm only warns about that at install, and
// what then breaks, breaks later and says less; so the version is checked here, against
// package.json's "engines", with what to do about it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { nodeVersionProblem } from "./node-version.mjs";

const manifest = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "package.json"), "utf8"));
const problem = nodeVersionProblem(process.version, manifest.engines.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
