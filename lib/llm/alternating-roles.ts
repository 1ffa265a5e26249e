// Many open models' chat templates (Gemma, Mistral, Llama 2 and their kin, served by vLLM,
// llama.cpp or TGI) take one optional system message first and then strictly alternating
// user and assistant messages; anything else is refused ("Conversation roles must
// alternate user/assistant/user/assistant/..."). A compressed conversation's request has
// several system messages at its start (the prompt, the notice, one per summary) and,
// with automatic recall, one just before the newest question. This rewrites a request
// into that shape without dropping a word and in the same order, so the prefix a
// provider caches still grows only at its end.

import type { ChatCompletionContentPart, ChatCompletionMessageParam } from "openai/resources/chat/completions";

/** Opens a user message that had to be added because the conversation went on from an assistant message. */
export const CONTINUED = "(The conversation continues.)";
const JOINER = "\n\n";

type Content = string | ChatCompletionContentPart[];

function contentOf(message: ChatCompletionMessageParam): Content {
  const { content } = message;
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  // Assistant parts may be refusals; everything kept is text or an image.
  return content.flatMap((part): ChatCompletionContentPart[] =>
    part.type === "text" || part.type === "image_url" ? [part] : part.type === "refusal" ? [{ type: "text", text: part.refusal }] : [],
  );
}

function joined(a: Content, b: Content): Content {
  if (typeof a === "string" && typeof b === "string") return a === "" ? b : b === "" ? a : `${a}${JOINER}${b}`;
  const parts = (c: Content): ChatCompletionContentPart[] => (typeof c === "string" ? (c === "" ? [] : [{ type: "text", text: c }]) : c);
  const left = parts(a);
  const right = parts(b);
  return left.length > 0 && right.length > 0 ? [...left, { type: "text", text: JOINER }, ...right] : [...left, ...right];
}

function textOnly(content: Content): string {
  return typeof content === "string" ? content : content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/**
 * The messages as one leading system message (every system message before the first
 * other one, joined), then user and assistant messages alternating from a user message:
 * a later system message becomes part of the user message after it, and neighbours of
 * one role are joined. Tool calls and results are left as they are: a template that
 * takes them has its own rules for them.
 */
export function alternatingRoles(messages: readonly ChatCompletionMessageParam[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let system: string | undefined;
  let index = 0;
  for (; index < messages.length && messages[index]!.role === "system"; index++) {
    const text = textOnly(contentOf(messages[index]!));
    system = system === undefined ? text : `${system}${JOINER}${text}`;
  }
  if (system !== undefined) out.push({ role: "system", content: system });

  for (const message of messages.slice(index)) {
    const previous = out.at(-1);
    if (message.role === "tool" || message.role === "function" || (message.role === "assistant" && message.tool_calls?.length)) {
      out.push(message);
      continue;
    }
    // A later system message (a recall block) is context for the question after it.
    const role = message.role === "assistant" ? "assistant" : "user";
    const content = contentOf(message);
    if (previous && previous.role === role && !(role === "assistant" && "tool_calls" in previous && previous.tool_calls?.length)) {
      out[out.length - 1] = role === "user" ? { role, content: joined(contentOf(previous), content) } : { role, content: textOnly(joined(contentOf(previous), content)) };
    } else if (role === "assistant" && (!previous || previous.role === "system")) {
      out.push({ role: "user", content: CONTINUED }, { role, content: textOnly(content) });
    } else {
      out.push(role === "user" ? { role, content } : { role, content: textOnly(content) });
    }
  }
  return out;
}
