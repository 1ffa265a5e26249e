// Where an attachment's text lives: in the user's message itself. At send time each
// attached file's text is appended to what the user typed, fenced and named, and that
// is the message's stored content: exactly what the model saw, counted, compressed,
// searched and exported like any other text. The Attachment row keeps the original
// file (for download) and where its block starts, so the chat view can show what was
// typed with a chip per file instead of the whole file.
//
// An image's block is a one-line stand-in naming it ("[image: plan.png, 800×600]"):
// the stored content stays text, so a summary request, search and export read that
// line and never the bytes; a model that takes images gets the image itself beside the
// text when the request is built (lib/chat/image-parts.ts).

export type ComposedPart = { kind: "text"; name: string; text: string } | { kind: "image"; standIn: string };

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

/** The header line of an attachment's block (file names are one line: anything else is flattened). */
export function blockHeader(name: string): string {
  return `Attached file: ${name.replace(/[\r\n]+/g, " ")}`;
}

/** The line that stands for an image in the message's text. */
export function imageStandIn(name: string, width: number, height: number): string {
  return `[image: ${name.replace(/[\r\n\]]+/g, " ")}, ${width}×${height}]`;
}

export function attachmentBlock(part: ComposedPart): string {
  if (part.kind === "image") return part.standIn;
  const fence = fenceFor(part.text);
  return `${blockHeader(part.name)}\n${fence}\n${part.text}\n${fence}`;
}

/** A file whose text was cut from its middle to fit the message: how much of it the message holds. */
export type CutFile = { name: string; keptChars: number; totalChars: number };

/** The line that stands where the middle of a file's text was left out of the message. */
export function leftOutLine(name: string, chars: number): string {
  return `[… ${chars.toLocaleString("en-US")} characters of ${name.replace(/[\r\n\]`]+/g, " ")} left out of the message here; the whole file stays attached …]`;
}

/** Room for the line above (its name and count at their longest). */
const LEFT_OUT_LINE_CHARS = 360;

/** The start and end of `text` in about `keep` characters, cut at line ends when one is near, and never inside a character. */
function headAndTail(text: string, keep: number): { head: string; tail: string } {
  const half = Math.max(0, Math.floor(keep / 2));
  let headEnd = half;
  const lineEnd = text.lastIndexOf("\n", headEnd);
  if (lineEnd > headEnd * 0.8) headEnd = lineEnd;
  let tailStart = text.length - half;
  const lineStart = text.indexOf("\n", tailStart);
  if (lineStart >= 0 && lineStart < tailStart + half * 0.2) tailStart = lineStart + 1;
  // A surrogate pair is one character: neither cut may fall between its halves.
  if (/[\uDC00-\uDFFF]/.test(text[headEnd] ?? "")) headEnd--;
  if (/[\uDC00-\uDFFF]/.test(text[tailStart] ?? "")) tailStart++;
  return { head: text.slice(0, Math.max(0, headEnd)), tail: text.slice(Math.max(headEnd, tailStart)) };
}

/**
 * How many characters of each text part the message keeps, within `room` in all: the
 * smaller texts whole, the room they leave shared equally by the larger ones.
 */
function shares(lengths: number[], room: number): number[] {
  const kept = lengths.map(() => 0);
  const order = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length);
  let left = Math.max(0, room);
  order.forEach(({ length, index }, position) => {
    const share = Math.floor(left / (order.length - position));
    kept[index] = Math.min(length, share);
    left -= kept[index]!;
  });
  return kept;
}

/**
 * The message content with the attachments' text, and where each attachment's block
 * starts (a character offset into the content, in the order given). A message holds at
 * most `maxChars` characters, typed or attached, as a typed one does: what every later
 * step (counting, compressing, searching) costs grows with it, and a 10 MB text file is
 * far more than a model's window anyway. The files' text shares the room the typed text
 * leaves; a larger file keeps its start and end, with a line saying how much of its
 * middle was left out (the file itself stays attached whole, for download).
 */
export function composeContent(typed: string, parts: ComposedPart[], maxChars = Number.POSITIVE_INFINITY): { content: string; starts: number[]; cut: CutFile[] } {
  const texts = parts.flatMap((part) => (part.kind === "text" ? [part] : []));
  const framing = parts.reduce((sum, part) => sum + 2 + (part.kind === "image" ? part.standIn.length : attachmentBlock({ ...part, text: "" }).length + 2 * (fenceFor(part.text).length - 3)), typed.length);
  const total = framing + texts.reduce((sum, part) => sum + part.text.length, 0);
  const kept = total <= maxChars ? null : shares(texts.map((part) => part.text.length), maxChars - framing - texts.length * LEFT_OUT_LINE_CHARS);
  const cut: CutFile[] = [];
  let content = typed;
  const starts: number[] = [];
  let textIndex = 0;
  for (const part of parts) {
    // A message of files only starts with the first block.
    if (content !== "") content += "\n\n";
    starts.push(content.length);
    const keep = part.kind === "text" ? (kept?.[textIndex++] ?? part.text.length) : 0;
    if (part.kind === "text" && keep < part.text.length) {
      const { head, tail } = headAndTail(part.text, keep);
      const left = part.text.length - head.length - tail.length;
      cut.push({ name: part.name, keptChars: head.length + tail.length, totalChars: part.text.length });
      const fence = fenceFor(part.text);
      content += `${blockHeader(part.name)}\n${fence}\n${head}\n${leftOutLine(part.name, left)}\n${tail}\n${fence}`;
    } else {
      content += attachmentBlock(part);
    }
  }
  return { content, starts, cut };
}

/** What the chat view shows of a message whose attachments start at `starts`: the typed text. */
export function typedPart(content: string, starts: number[]): string {
  const first = Math.min(...starts.filter((start) => start >= 0 && start <= content.length));
  return Number.isFinite(first) ? content.slice(0, first).trimEnd() : content;
}
