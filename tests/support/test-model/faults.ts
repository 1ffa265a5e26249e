// Fault injection for the test model: a FIFO queue. Each chat-completions request
// takes the first queued fault whose target matches it and uses up one of its
// `times`; a fault leaves the queue when it has none left. Faults never touch
// /v1/models or the admin endpoints.

import { z } from "zod";
import type { RequestKind } from "../../../lib/llm/demo-server/behaviour";

const target = z.enum(["chat", "summary", "any"]).default("any");
const times = z.number().int().positive().default(1);
const common = { target, times };

export const faultSchema = z.discriminatedUnion("type", [
  /** 500 with an OpenAI-style error body. */
  z.object({ type: z.literal("http_500"), ...common }),
  /** Any status with an OpenAI-style error body (401 → "Invalid API key", 429, 404 …). */
  z.object({ type: z.literal("http_error"), status: z.number().int().min(400).max(599), message: z.string().optional(), ...common }),
  /** Wait `ms`, then answer normally. */
  z.object({ type: z.literal("delay"), ms: z.number().int().nonnegative().max(600_000), ...common }),
  /** Never answer. Ends when the client aborts or the server closes. */
  z.object({ type: z.literal("hang"), ...common }),
  /** 200 with empty content. */
  z.object({ type: z.literal("empty"), ...common }),
  /** Streaming: a valid first chunk, then a garbage `data:` line. Non-streaming: a garbage body. */
  z.object({ type: z.literal("malformed_stream"), ...common }),
  /** The reply content is prose instead of the expected JSON. */
  z.object({ type: z.literal("invalid_json"), ...common }),
]);

export type Fault = z.input<typeof faultSchema>;
export type QueuedFault = z.output<typeof faultSchema>;
export type FaultType = QueuedFault["type"];

export class FaultQueue {
  private queue: QueuedFault[] = [];

  /** Validates and enqueues; throws a ZodError on a bad fault. */
  add(fault: unknown): QueuedFault {
    const parsed = faultSchema.parse(fault);
    this.queue.push(parsed);
    return parsed;
  }

  clear(): void {
    this.queue = [];
  }

  list(): QueuedFault[] {
    return this.queue.map((fault) => ({ ...fault }));
  }

  /** Takes one use of the first fault matching this request, if any. */
  take(kind: RequestKind): QueuedFault | undefined {
    const index = this.queue.findIndex((fault) => fault.target === "any" || fault.target === kind);
    if (index < 0) return undefined;
    const fault = this.queue[index]!;
    const remaining = fault.times - 1;
    if (remaining <= 0) this.queue.splice(index, 1);
    else this.queue[index] = { ...fault, times: remaining };
    return { ...fault, times: 1 };
  }
}
