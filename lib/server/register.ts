// Node side of instrumentation.ts (kept out of it so the edge bundle never sees
// process.exit): validate the configuration, then start the server's machinery.
import { ConfigError, config } from "../config";

export async function registerNodeServer(): Promise<void> {
  try {
    config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Strata cannot start. ${error.message}`);
    process.exit(1);
  }
  // Before the first request: the sign-in limits need each request's socket address.
  (await import("../auth/client-address")).stampPeerAddresses();
  const { startServer } = await import("./start");
  await startServer();
}
