// Large conversation exports for the import tests, generated as a stream so that the
// test itself never holds the file: its memory is not mistaken for the server's.
import { EXPORT_FORMAT, EXPORT_VERSION } from "../../lib/db/export-format";

export type BigExportOptions = {
  messages: number;
  /** Characters of each message's content. */
  contentChars: number;
  /** Makes the last message invalid (an unknown role): refused only at the end of the file. */
  badLast?: boolean;
  title?: string;
};

const WORDS = "the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches".split(" ");

function content(seq: number, chars: number): string {
  let text = `Message ${seq}: `;
  for (let i = seq; text.length < chars; i++) text += `${WORDS[i % WORDS.length]} `;
  return text.slice(0, chars);
}

function message(seq: number, options: BigExportOptions): string {
  const last = seq === options.messages;
  return JSON.stringify({
    seq,
    role: last && options.badLast ? "robot" : seq % 2 ? "user" : "assistant",
    content: content(seq, options.contentChars),
    toolCalls: null,
    toolCallId: null,
    toolName: null,
    tokenCount: Math.ceil(options.contentChars / 4),
    promptTokens: null,
    completionTokens: null,
    requestTokens: null,
    model: seq % 2 ? null : "gpt-4o-mini",
    status: "complete",
    error: null,
    pinned: false,
    rewound: false,
    versionOf: null,
    branchOf: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
  });
}

function head(options: BigExportOptions): string {
  const doc = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: "2026-01-02T00:00:00.000Z",
    conversation: { title: options.title ?? "Big import", model: "gpt-4o-mini", systemPrompt: "", createdAt: "2026-01-01T00:00:00.000Z" },
    settings: { overrides: {}, effective: {} },
  };
  return `${JSON.stringify(doc).slice(0, -1)},"messages":[`;
}

const TAIL = '],"compactions":[],"attempts":[]}';

/** The file's size in bytes (computed by generating it, a message at a time). */
export function bigExportBytes(options: BigExportOptions): number {
  let bytes = Buffer.byteLength(head(options)) + Buffer.byteLength(TAIL);
  for (let seq = 1; seq <= options.messages; seq++) bytes += Buffer.byteLength(message(seq, options)) + (seq > 1 ? 1 : 0);
  return bytes;
}

/** The export as a byte stream, produced as it is read (about 64 KB per pull). */
export function bigExport(options: BigExportOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let seq = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let text = seq === 0 ? head(options) : "";
      while (text.length < 65_536 && seq < options.messages) {
        seq++;
        text += (seq > 1 ? "," : "") + message(seq, options);
      }
      if (seq === options.messages && text.length < 65_536) {
        controller.enqueue(encoder.encode(text + TAIL));
        controller.close();
        seq++;
        return;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

/** A POST to the import route with a streamed body. */
export function importRequest(body: ReadableStream<Uint8Array> | string, headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1/api/conversations/import", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}
