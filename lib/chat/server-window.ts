// A server that cut a request to a smaller window than Strata assumed (Ollama beyond its
// num_ctx drops the start of the request without an error): the model did not see the
// start of the conversation, and nothing would ever be compressed to fit, because the
// window Strata measures against is larger than the one the server serves. The window it
// evidently has becomes the user's setting for that model, so compression fits requests
// to it from the next round on, and the user is told.
import { serverCutWindow } from "../compression/measure";
import type { CompressionSettings } from "../compression/settings";
import { writeUserContextWindow } from "../db/settings";
import type { Db } from "../db/client";
import { modelCatalog } from "../llm/models";
import { logger } from "../log/logger";

const count = (tokens: number) => tokens.toLocaleString("en-US");

/**
 * The settings with the window the server evidently serves, and what to tell the user;
 * null when the server read the whole request. `previous`: the usage of the newest
 * earlier reply with one (see serverCutWindow).
 */
export async function learnServerWindow(
  db: Db,
  userId: string,
  call: { model: string; promptTokens: number; requestTokens: number },
  previous: { promptTokens: number; requestTokens: number } | undefined,
  settings: CompressionSettings,
): Promise<{ settings: CompressionSettings; notice: string } | null> {
  const cut = serverCutWindow(call, previous);
  const assumed = modelCatalog.contextWindow(call.model, settings.contextWindowOverrides);
  if (cut === null || cut >= assumed) return null;
  await writeUserContextWindow(db, userId, call.model, cut);
  logger.warn({ model: call.model, assumed, cut, sent: call.requestTokens }, "the model server cut a request to a smaller window; the model's context window is set to what it kept");
  return {
    settings: { ...settings, contextWindowOverrides: { ...settings.contextWindowOverrides, [call.model]: cut } },
    notice:
      `The model server read only ${count(call.promptTokens)} of the about ${count(call.requestTokens)} tokens sent for this reply: ` +
      `it cut the request to its own context window, so the model did not see the start of it. ` +
      `Strata now treats ${count(cut)} tokens as the context window of ${call.model} (Settings, context windows) and compresses to fit. ` +
      `If the server can take more (Ollama: num_ctx), raise it there and change the setting.`,
  };
}
