// Markdown transcripts read as a conversation export (./export-format.ts), to be stored by
// the ordinary importer. Two shapes are understood:
//  - Strata's own Markdown export (./export.ts): "#### You · #3" headings; the summaries'
//    <details> blocks are left out (the originals inside them are read), so the copy is
//    the conversation's messages, uncompressed — its next turn compresses them anew;
//  - the common transcript: "## User" / "## Assistant" headings (any level), or lines that
//    start with "**User:**" / "**Assistant:**".
// Anything else is refused with the shapes that are expected. Messages are numbered 1, 2, …
// in file order (the copy is a new conversation; the export leaves hidden messages out, so
// its numbers may have gaps).
import { z } from "zod";
import { AppError } from "../errors.ts";
import { EXPORT_FORMAT, EXPORT_VERSION, SECTION_LIMITS, TITLE_LIMIT, type ConversationExport, type ExportedMessage } from "./export-format.ts";

type Role = ExportedMessage["role"];
type Draft = { role: Role; pinned: boolean; lines: string[] };

const refused = (message: string) => new AppError("invalid_input", `The Markdown file cannot be imported: ${message}`);

const STRATA_HEADING = /^#### (You|Assistant|Tool|System) · #\d+( · pinned)?\s*$/;
const STRATA_ROLES: Record<string, Role> = { You: "user", Assistant: "assistant", Tool: "tool", System: "system" };
const GENERIC_ROLES: Record<string, Role> = { user: "user", you: "user", human: "user", assistant: "assistant", ai: "assistant", model: "assistant", system: "system" };
const GENERIC_HEADING = /^#{1,6}\s+(User|You|Human|Assistant|AI|Model|System)\s*:?\s*$/i;
const GENERIC_BOLD = /^\*\*(User|You|Human|Assistant|AI|Model|System)\s*:?\*\*\s*:?\s?(.*)$/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** What the export made inert (`<` as `&lt;`, `&` as `&amp;` in plain lines) back to text. */
const unescapeInert = (text: string) => text.replaceAll("&lt;", "<");
const unescapeLine = (text: string) => text.replaceAll("&lt;", "<").replaceAll("&amp;", "&");

/** The text inside a code span as codeSpan() wrote it. */
function codeSpanText(span: string): string {
  const match = /^(`+)(.*)\1$/.exec(span.trim());
  if (!match) return span.trim();
  const inner = match[2]!;
  return inner.startsWith(" ") && inner.endsWith(" ") && inner.trim() ? inner.slice(1, -1) : inner;
}

const trimBlankLines = (lines: string[]) => {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end).join("\n");
};

export type ParsedTranscript = {
  title: string | null;
  model: string | null;
  /** From a Strata export's head line (absent there when none was set, and in other transcripts). */
  temperature: number | null;
  systemPrompt: string;
  messages: { role: Role; content: string; pinned: boolean }[];
};

// The head line's last field, as lib/db/export.ts writes it.
const HEAD_TEMPERATURE = / · temperature (\d+(?:\.\d+)?)$/;

function headTemperature(line: string): number | null {
  const value = Number(HEAD_TEMPERATURE.exec(line)?.[1] ?? Number.NaN);
  return Number.isFinite(value) && value >= 0 && value <= 2 ? value : null;
}

function parseStrata(lines: string[]): ParsedTranscript {
  let title: string | null = null;
  let model: string | null = null;
  let temperature: number | null = null;
  const prompt: string[] = [];
  const messages: Draft[] = [];
  let section: "head" | "prompt" | "conversation" = "head";
  let inSummary = false; // between a <details> line and its "**Originals:**"
  let fence: string | null = null;
  for (const line of lines) {
    if (section !== "conversation") {
      if (section === "head" && title === null && line.startsWith("# ")) title = unescapeLine(line.slice(2).trim());
      else if (section === "head" && model === null && line.startsWith("Model ")) {
        model = codeSpanText(line.slice(6).split(" · started ")[0] ?? "");
        temperature = headTemperature(line);
      }
      else if (line === "## System prompt") section = "prompt";
      else if (line === "## Conversation") section = "conversation";
      else if (section === "prompt") prompt.push(line);
      continue;
    }
    const current = messages.at(-1);
    // Inside a message's code block, every line is the message's.
    if (fence && current && !inSummary) {
      current.lines.push(line);
      if (line.trimStart().startsWith(fence)) fence = null;
      continue;
    }
    if (line === "<details>") {
      inSummary = true;
      continue;
    }
    if (inSummary) {
      if (line === "**Originals:**") inSummary = false;
      continue;
    }
    if (line === "</details>") continue;
    const heading = STRATA_HEADING.exec(line);
    if (heading) {
      messages.push({ role: STRATA_ROLES[heading[1]!]!, pinned: heading[2] != null, lines: [] });
      continue;
    }
    if (!current) continue;
    current.lines.push(line);
    const opened = FENCE.exec(line);
    if (opened) fence = opened[1]!;
  }
  return {
    title,
    model,
    temperature,
    systemPrompt: unescapeInert(trimBlankLines(prompt)),
    messages: messages.map((m) => ({ role: m.role, pinned: m.pinned, content: unescapeInert(trimBlankLines(m.lines)) })),
  };
}

function parseGeneric(lines: string[]): ParsedTranscript {
  let title: string | null = null;
  const messages: Draft[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const current = messages.at(-1);
    if (fence && current) {
      current.lines.push(line);
      if (line.trimStart().startsWith(fence)) fence = null;
      continue;
    }
    const heading = GENERIC_HEADING.exec(line);
    const bold = heading ? null : GENERIC_BOLD.exec(line);
    if (heading || bold) {
      const role = GENERIC_ROLES[(heading ?? bold)![1]!.toLowerCase()]!;
      messages.push({ role, pinned: false, lines: bold?.[2] ? [bold[2]] : [] });
      continue;
    }
    if (!current) {
      if (title === null && /^# \S/.test(line)) title = line.slice(2).trim();
      continue;
    }
    current.lines.push(line);
    const opened = FENCE.exec(line);
    if (opened) fence = opened[1]!;
  }
  // A leading system message is the conversation's instructions, as in Strata.
  const system = messages[0]?.role === "system" ? messages.shift() : undefined;
  return {
    title,
    model: null,
    temperature: null,
    systemPrompt: system ? trimBlankLines(system.lines) : "",
    messages: messages.map((m) => ({ role: m.role, pinned: false, content: trimBlankLines(m.lines) })),
  };
}

/** The transcript in `markdown`, or a refusal naming the shapes that are understood. */
export function parseMarkdownTranscript(markdown: string): ParsedTranscript {
  if (markdown.includes("\u0000")) throw refused("it holds a NUL character; it is not a text file.");
  const lines = markdown.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const strata = lines.some((line) => line === "## Conversation") && lines.some((line) => STRATA_HEADING.test(line));
  const parsed = strata ? parseStrata(lines) : parseGeneric(lines);
  if (parsed.messages.length === 0) {
    throw refused(
      'no messages were found. Expected Strata\'s Markdown export, or a transcript with sections headed "## User" and "## Assistant" (any heading level), or lines starting "**User:**" and "**Assistant:**".',
    );
  }
  if (parsed.messages.length > SECTION_LIMITS.messages) {
    throw refused(`it holds more than ${SECTION_LIMITS.messages.toLocaleString("en-US")} messages.`);
  }
  return parsed;
}

/**
 * A tool result in a transcript has lost its call (Markdown keeps the call as text), and a
 * model refuses a tool message without one: it comes in as a system note instead.
 */
function importedRole(message: ParsedTranscript["messages"][number]): ParsedTranscript["messages"][number] {
  return message.role === "tool" ? { ...message, role: "system", content: `Tool result:\n\n${message.content}` } : message;
}

const titleSchema = z.string().trim().min(1).max(TITLE_LIMIT);

/**
 * The transcript as a conversation export, ready for the importer; `countTokens` measures
 * each message (the caller's tokenizer, for the conversation's model).
 */
export function transcriptAsExport(
  parsed: ParsedTranscript,
  defaults: { model: string; title: string },
  countTokens: (text: string, model: string) => number,
): ConversationExport {
  const now = new Date().toISOString();
  const model = parsed.model?.trim() ? parsed.model.trim().slice(0, 200) : defaults.model;
  const title = titleSchema.safeParse(parsed.title?.replace(/\s+/g, " ").slice(0, TITLE_LIMIT));
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now,
    conversation: { title: title.success ? title.data : defaults.title, model, systemPrompt: parsed.systemPrompt, temperature: parsed.temperature, createdAt: now },
    settings: { overrides: {}, effective: {} },
    messages: parsed.messages.map(importedRole).map((message, index) => ({
      seq: index + 1,
      role: message.role,
      content: message.content,
      toolCalls: null,
      toolCallId: null,
      toolName: null,
      toolOutcome: null,
      toolDurationMs: null,
      toolServer: null,
      toolContent: null,
      tokenCount: countTokens(message.content, model),
      promptTokens: null,
      completionTokens: null,
      requestTokens: null,
      model: null,
      reasoning: null,
      status: "complete",
      error: null,
      pinned: message.pinned,
      rewound: false,
      versionOf: null,
      branchOf: null,
      createdAt: now,
      attachments: [],
    })),
    compactions: [],
    attempts: [],
  };
}
