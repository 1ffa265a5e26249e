// Which files an edited message keeps. The editor shows the message's whole content, so
// each file is still there as its block: an image as the line standing for it, a text or
// PDF file as its "Attached file: name" header. The user removes a file from the edited
// message by deleting that line; a file whose line is still in the edited text stays on
// the new version (its chip, and for an image the image itself sent beside the text).
import { blockHeader } from "./compose";
import { isImageType as isImage } from "./kinds";

/** A file of the message being edited, in its order on that message. */
export type EditedFile = { id: string; name: string; mediaType: string; text: string | null; tokenCount: number };

/** A file the edited message keeps, and where its block now starts in the edited content. */
export type KeptFile = { id: string; contentStart: number; imageTokens: number };

/** The line that shows a file's block is still in a message's content. */
function markerLine(file: EditedFile): string {
  return isImage(file.mediaType) ? (file.text ?? `[image: ${file.name}]`) : blockHeader(file.name);
}

/** Where each whole line of `content` starts, by its text. */
function lineStarts(content: string): Map<string, number[]> {
  const starts = new Map<string, number[]>();
  let offset = 0;
  for (const line of content.split("\n")) {
    // A Windows line end from a pasted edit still ends the line.
    const text = line.replace(/\r$/, "").trim();
    starts.set(text, [...(starts.get(text) ?? []), offset]);
    offset += line.length + 1;
  }
  return starts;
}

/**
 * The files of `files` whose line is still a whole line of `content`, in their order.
 * Two files with the same line (the same image attached twice) each take one occurrence,
 * so deleting one of the two lines keeps one of the files.
 */
export function keptOnEdit(content: string, files: readonly EditedFile[]): KeptFile[] {
  const starts = lineStarts(content);
  const kept: KeptFile[] = [];
  for (const file of files) {
    const start = starts.get(markerLine(file))?.shift();
    if (start === undefined) continue;
    kept.push({ id: file.id, contentStart: start, imageTokens: isImage(file.mediaType) ? file.tokenCount : 0 });
  }
  return kept;
}
