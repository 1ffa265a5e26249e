// What Strata sends that a server may refuse, and how to ask again. OpenAI-compatible
// servers differ in what they accept:
// - strict ones (NVIDIA NIM, Azure AI Foundry, pydantic-validated servers) refuse fields
//   they do not know, such as the two Strata adds for the provider's benefit
//   (`prompt_cache_key`, `stream_options`);
// - reasoning models refuse any temperature but the default, and `max_tokens` in favour of
//   `max_completion_tokens` — and behind a proxy or an Azure deployment their name does
//   not say they are one (lib/llm/client.ts guesses from the name only);
// - models without tool calling refuse `tools` (Ollama: "M does not support tools"; vLLM
//   without a tool parser); such a model still chats, and automatic recall stands in for
//   the history tools;
// - chat templates that take one system message and then alternating user and assistant
//   messages refuse a compressed conversation's request (lib/llm/alternating-roles.ts).
// Each refusal is a 400 or 422 naming the field (a template error may come as a 500),
// before anything streams. The request is
// sent again adapted, and the adaptation is remembered for that endpoint and model, so
// such a server works without a setting and costs one refused request per process.

import { APIError } from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { logger } from "../log/logger";
import { alternatingRoles } from "./alternating-roles";

type Adaptation = {
  /** The field of the request it changes. */
  field: string;
  /** Whether what the server said (its message, or its body as JSON) asks for it. */
  asked(said: string): boolean;
  description: string;
  apply(params: Record<string, unknown>): Record<string, unknown>;
  /** HTTP statuses its refusal comes with. */
  statuses?: readonly number[];
};

const drop = (field: string, why: string, asked: (said: string) => boolean = (said) => said.includes(field)): Adaptation => ({
  field,
  asked,
  description: `without ${field} (${why})`,
  apply: ({ [field]: _dropped, ...rest }) => rest,
});

const ADAPTATIONS: readonly Adaptation[] = [
  drop("prompt_cache_key", "a routing hint for the provider's cache"),
  drop("stream_options", "usage in the stream; the chat figures stay empty"),
  drop("temperature", "the model takes its default only"),
  drop("tools", "the model does not call tools", (said) => /does not support tools|tools? (?:are|is) not supported|tool[- _]call[- _]parser|tool[- _]choice/i.test(said)),
  {
    field: "messages",
    asked: (said) => /roles must alternate|unexpected role|system message.{0,40}(?:beginning|first)|only one system message/i.test(said),
    description: "with one system message first and user and assistant messages alternating",
    apply: (params) => ({ ...params, messages: alternatingRoles(params.messages as ChatCompletionMessageParam[]) }),
    // A chat template that raises is a 500 on some servers (llama.cpp, TGI).
    statuses: [400, 422, 500],
  },
  {
    field: "max_tokens",
    asked: (said) => said.includes("max_tokens") && said.includes("max_completion_tokens"),
    description: "with max_completion_tokens instead of max_tokens",
    apply: ({ max_tokens: limit, ...rest }) => ({ ...rest, max_completion_tokens: limit }),
  },
];

/** Adaptations by endpoint (its client) and model. */
const adaptedFor = new WeakMap<object, Map<string, Set<Adaptation>>>();

/** Whether the endpoint's server refused tools for `model`: its requests go without them. */
export function refusesTools(client: object, model: string): boolean {
  return [...(adaptedFor.get(client)?.get(model) ?? [])].some((adaptation) => adaptation.field === "tools");
}

function adapt<P extends object>(params: P, adaptations: Iterable<Adaptation>): P {
  let adapted = params as Record<string, unknown>;
  for (const adaptation of adaptations) adapted = adaptation.apply(adapted);
  return adapted as P;
}

/** The adaptations a refusal of `sent` asks for. */
function askedFor(error: unknown, sent: object, done: ReadonlySet<Adaptation>): Adaptation[] {
  if (!(error instanceof APIError) || error.status === undefined) return [];
  const status = error.status;
  // The message holds the server's reason; a body without one is in it as JSON.
  const said = `${error.message}\n${JSON.stringify(error.error ?? null)}`;
  return ADAPTATIONS.filter(
    (adaptation) => (adaptation.statuses ?? [400, 422]).includes(status) && !done.has(adaptation) && adaptation.field in sent && adaptation.asked(said),
  );
}

/**
 * Sends `params` with `send`, adapted as its server asked before; when the server refuses
 * a field that can go or be renamed, sends it again adapted and remembers that for this
 * endpoint and model. Any other failure is the caller's.
 */
export async function sendToServer<P extends { model: string }, R>(client: object, params: P, send: (params: P) => Promise<R>): Promise<R> {
  const byModel = adaptedFor.get(client) ?? new Map<string, Set<Adaptation>>();
  const adaptations = byModel.get(params.model) ?? new Set<Adaptation>();
  // One more attempt per adaptation at most: a server may name one refused field at a time.
  for (let attempt = 0; ; attempt++) {
    const sent = adapt(params, adaptations);
    try {
      return await send(sent);
    } catch (error) {
      const asked = askedFor(error, sent, adaptations);
      if (asked.length === 0 || attempt >= ADAPTATIONS.length) throw error;
      for (const adaptation of asked) adaptations.add(adaptation);
      byModel.set(params.model, adaptations);
      adaptedFor.set(client, byModel);
      logger.warn({ model: params.model }, `the model server refused a request; it is sent ${asked.map((a) => a.description).join(", ")} from now on`);
    }
  }
}
