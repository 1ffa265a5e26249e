// A reasoning model's thinking, kept apart from its reply. Servers send it in one of two
// ways: a field of the stream's delta beside `content` (`reasoning_content`: vLLM's and
// DeepSeek's; `reasoning`: OpenRouter's, Ollama's), or inside `content` as a leading
// <think>…</think> block (Qwen and DeepSeek-R1 served without a reasoning parser). Either
// way it is shown folded and stored apart, and never sent back: a later request carries
// the reply only (what the providers ask for), so thinking neither fills the window nor
// reaches a summary.

export type ReasoningPart = { kind: "text" | "reasoning"; text: string };

const OPEN_TAGS = ["<think>", "<thinking>"] as const;
const CLOSE_OF: Record<(typeof OPEN_TAGS)[number], string> = { "<think>": "</think>", "<thinking>": "</thinking>" };
const LEADING_BLOCK = /^\s*<(think|thinking)>([\s\S]*?)(?:<\/\1>\s*([\s\S]*))?$/;

/** A whole reply's content split into its leading thinking block (if any) and the reply after it. */
export function splitThinking(content: string): { reasoning: string; text: string } {
  const match = LEADING_BLOCK.exec(content);
  if (!match) return { reasoning: "", text: content };
  return { reasoning: match[2]!.trim(), text: match[3] ?? "" };
}

/**
 * Some chat templates open the thinking block in the prompt (DeepSeek-R1's, served by vLLM
 * without a reasoning parser), so the reply starts inside it and only its closing tag
 * arrives: everything before the first `</think>` that no `<think>` opens is thinking. A
 * stream cannot tell that until the tag comes, so a turn applies this to the whole reply
 * when the stream found no thinking; null when there is no such tag.
 */
export function splitUnopenedThinking(content: string): { reasoning: string; text: string } | null {
  const close = content.indexOf("</think>");
  if (close < 0 || content.lastIndexOf("<think>", close) >= 0) return null;
  return { reasoning: content.slice(0, close).trim(), text: content.slice(close + "</think>".length).trimStart() };
}

/** A whole reply's thinking and answer, whichever way the thinking came in its content. */
export function thinkingOf(content: string): { reasoning: string; text: string } {
  const split = splitThinking(content);
  return split.reasoning ? split : (splitUnopenedThinking(content) ?? split);
}

/**
 * The same split over a stream of content deltas: thinking goes out as it arrives, and
 * nothing is held longer than it takes to tell a tag from text (a tag may arrive cut
 * across deltas). `splitThinking` of the whole content gives the same parts once the
 * reasoning is trimmed.
 */
export class ThinkingSplitter {
  private state: "start" | "reasoning" | "after" | "text" = "start";
  private held = "";
  private close = "";

  push(delta: string): ReasoningPart[] {
    this.held += delta;
    const parts: ReasoningPart[] = [];
    for (;;) {
      const before = this.held;
      const state = this.state;
      this.step(parts);
      if (this.held === before && this.state === state) return parts;
    }
  }

  /** What is still held when the stream ends. */
  end(): ReasoningPart[] {
    const parts: ReasoningPart[] = [];
    // A cut-off opening tag is text; a cut-off closing tag, thinking. ("after" holds nothing.)
    if (this.held) parts.push({ kind: this.state === "reasoning" ? "reasoning" : "text", text: this.held });
    this.held = "";
    this.state = "text";
    return parts;
  }

  private step(parts: ReasoningPart[]): void {
    switch (this.state) {
      case "start": {
        const trimmed = this.held.trimStart();
        const open = OPEN_TAGS.find((tag) => trimmed.startsWith(tag));
        if (open) {
          this.state = "reasoning";
          this.close = CLOSE_OF[open];
          this.held = trimmed.slice(open.length);
        } else if (trimmed === "" || OPEN_TAGS.some((tag) => tag.startsWith(trimmed))) {
          // Whitespace, or the start of a tag: wait for more.
        } else {
          this.state = "text";
        }
        return;
      }
      case "reasoning": {
        const at = this.held.indexOf(this.close);
        if (at >= 0) {
          emit(parts, "reasoning", this.held.slice(0, at));
          this.held = this.held.slice(at + this.close.length);
          this.state = "after";
          return;
        }
        // Keep back what could be the start of the closing tag.
        const keep = partialSuffix(this.held, this.close);
        emit(parts, "reasoning", this.held.slice(0, this.held.length - keep));
        this.held = this.held.slice(this.held.length - keep);
        return;
      }
      case "after": {
        const trimmed = this.held.trimStart();
        this.held = trimmed;
        if (trimmed !== "") this.state = "text";
        return;
      }
      case "text":
        emit(parts, "text", this.held);
        this.held = "";
        return;
    }
  }
}

function emit(parts: ReasoningPart[], kind: ReasoningPart["kind"], text: string): void {
  if (text === "") return;
  const last = parts.at(-1);
  if (last?.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/** The length of the longest end of `text` that is a proper start of `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
