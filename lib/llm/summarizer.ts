// The engine's Summarizer: one non-streaming completion per request. The engine
// owns retries, fallbacks and judging the text (an empty reply is returned as ""
// and the engine decides it's a failure); this module only talks to the model and
// turns every failure into a ModelError.

import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { SummaryReply, SummaryRequest, Summarizer } from "../compression/types";
import { getModelEndpoint, maxTokensParam, supportsTemperature, toWireMessages, type ModelEndpoint } from "./client";
import { abortedError, malformedError, toModelError } from "./errors";
import { promptCacheKey, usageOf } from "./usage";
import { sendToServer } from "./strict-servers";
import { thinkingOf } from "./reasoning";

export type SummarizerOptions = {
  /** Defaults to getModelEndpoint() on every call (so env changes and the demo server are picked up). */
  endpoint?: ModelEndpoint | (() => Promise<ModelEndpoint>);
};

export function createSummarizer(options: SummarizerOptions = {}): Summarizer {
  const resolveEndpoint = async (): Promise<ModelEndpoint> => {
    const { endpoint } = options;
    if (!endpoint) return getModelEndpoint();
    return typeof endpoint === "function" ? endpoint() : endpoint;
  };

  return {
    async complete(request: SummaryRequest): Promise<SummaryReply> {
      if (request.signal?.aborted) throw abortedError(request.signal.reason);
      const endpoint = await resolveEndpoint();
      // One deadline for the whole call, retries included; the caller's signal still cancels.
      const deadline = AbortSignal.timeout(request.timeoutMs);
      const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;

      const params: ChatCompletionCreateParamsNonStreaming = {
        model: request.model,
        messages: toWireMessages(request.messages),
        // The chat request's tools, when the request reuses its prefix: they open the cached prefix.
        ...(request.tools?.length ? { tools: request.tools.map((tool) => ({ ...tool })) } : {}),
        stream: false,
        ...maxTokensParam(endpoint, request.maxTokens),
        ...(supportsTemperature(request.model) ? { temperature: request.temperature } : {}),
        ...(request.json ? { response_format: { type: "json_object" as const } } : {}),
        ...promptCacheKey(request.cacheScope),
      };

      try {
        const completion = await sendToServer(endpoint.client, params, (sent) => endpoint.client.chat.completions.create(sent, { signal }));
        const choice = completion.choices?.[0];
        if (!choice) throw malformedError("the reply had no choices");
        const usage = completion.usage ? usageOf(completion.usage) : null;
        return {
          // A model that thinks in its content (<think>…</think>) would put its thinking in the summary.
          text: thinkingOf(choice.message?.content ?? "").text,
          ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
          ...(usage ? { usage } : {}),
        };
      } catch (error) {
        throw toModelError(error, {
          timedOut: deadline.aborted && !request.signal?.aborted,
          timeoutMs: request.timeoutMs,
          baseURL: endpoint.baseURL,
        });
      }
    },
  };
}
