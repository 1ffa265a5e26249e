// Runs once when a Next server starts (dev or `next start`), before any request:
// an invalid configuration stops the start with a message naming the variable, then
// the stop listener, background queue and SIGTERM drain start (lib/server/register.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNodeServer } = await import("./lib/server/register");
    await registerNodeServer();
  }
}
