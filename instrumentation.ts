// Runs once when a Next server starts (dev or `next start`), before any request.
// It validates the configuration, so an invalid variable stops the start with a
// message naming it, then starts the server's own machinery (lib/server/start.ts:
// stop listener, background queue, SIGTERM drain).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config, ConfigError } = await import("./lib/config");
  try {
    config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Strata cannot start. ${error.message}`);
    process.exit(1);
  }
  const { startServer } = await import("./lib/server/start");
  await startServer();
}
