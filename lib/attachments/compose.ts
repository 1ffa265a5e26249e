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

/**
 * The message content with the attachments' text, and where each attachment's block
 * starts (a character offset into the content, in the order given).
 */
export function composeContent(typed: string, parts: ComposedPart[]): { content: string; starts: number[] } {
  let content = typed;
  const starts: number[] = [];
  for (const part of parts) {
    // A message of files only starts with the first block.
    if (content !== "") content += "\n\n";
    starts.push(content.length);
    content += attachmentBlock(part);
  }
  return { content, starts };
}

/** What the chat view shows of a message whose attachments start at `starts`: the typed text. */
export function typedPart(content: string, starts: number[]): string {
  const first = Math.min(...starts.filter((start) => start >= 0 && start <= content.length));
  return Number.isFinite(first) ? content.slice(0, first).trimEnd() : content;
}
