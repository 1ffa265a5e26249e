// Run before `next start` in the e2e webServer command: the app migrates on start.
import { prepareDatabase } from "./database";

await prepareDatabase();
console.log("e2e database ready");
