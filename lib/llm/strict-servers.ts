// Parameters Strata adds to a request for the provider's benefit (a prompt-cache key, usage
// in the stream) that the answer does not need. OpenAI takes them; many OpenAI-compatible
// servers ignore what they do not know; strict ones (NVIDIA NIM, Azure AI Foundry, servers
// that validate with pydantic) refuse the whole request with a 400 or 422 that names the
// field. Such a server is asked once more without them, and remembered, so it works
// without a setting and costs one refused request per process.

import { APIError } from "openai";
import { logger } from "../log/logger";

const OPTIONAL_PARAMS = ["prompt_cache_key", "stream_options"] as const;
type OptionalParam = (typeof OPTIONAL_PARAMS)[number];

/** What each endpoint (by its client) has refused: its requests go without those. */
const refusedBy = new WeakMap<object, Set<OptionalParam>>();

function without<P extends object>(params: P, names: Iterable<OptionalParam>): P {
  const plain = { ...params } as Record<string, unknown>;
  for (const name of names) delete plain[name];
  return plain as P;
}

/** The optional parameters of `params` that `error` says the server refused. */
function refusedParams(error: unknown, params: object): OptionalParam[] {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return [];
  // The message holds the server's reason; a body without one is in it as JSON.
  const said = `${error.message}\n${JSON.stringify(error.error ?? null)}`;
  return OPTIONAL_PARAMS.filter((name) => name in params && said.includes(name));
}

/**
 * Sends `params` with `send`, without what its server refused before; when the server
 * refuses an optional parameter, sends it again without that one and leaves it out of
 * every later request to this server. Any other failure is the caller's.
 */
export async function sendToServer<P extends object, R>(client: object, params: P, send: (params: P) => Promise<R>): Promise<R> {
  const refused = refusedBy.get(client) ?? new Set<OptionalParam>();
  // One more attempt per optional parameter at most: a server may name one refusal at a time.
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(without(params, refused));
    } catch (error) {
      const named = refusedParams(error, without(params, refused));
      if (named.length === 0 || attempt >= OPTIONAL_PARAMS.length) throw error;
      for (const name of named) refused.add(name);
      refusedBy.set(client, refused);
      logger.warn({ refused: named }, `the model server refused ${named.join(" and ")}; its requests go without ${[...refused].join(" and ")} from now on`);
    }
  }
}
