// Which files an edited message keeps: each whose line (an image's stand-in, a text
// file's header) is still a whole line of the edited text, once per line.
import { describe, expect, it } from "vitest";
import { attachmentBlock, composeContent, imageStandIn, type ComposedPart } from "../../../lib/attachments/compose";
import { keptOnEdit, type EditedFile } from "../../../lib/attachments/kept";

const image = (id: string, name: string): EditedFile => ({ id, name, mediaType: "image/png", text: imageStandIn(name, 800, 600), tokenCount: 765 });
const textFile = (id: string, name: string): EditedFile => ({ id, name, mediaType: "text/markdown", text: "The ferry leaves at 9.", tokenCount: 12 });
const partOf = (file: EditedFile): ComposedPart =>
  file.mediaType.startsWith("image/") ? { kind: "image", standIn: file.text! } : { kind: "text", name: file.name, text: file.text! };

describe("keptOnEdit", () => {
  it("keeps every file of an unchanged message, each at its block, images with their cost", () => {
    const files = [image("a", "photo.png"), textFile("b", "notes.md")];
    const { content, starts } = composeContent("Plan it", files.map(partOf));
    expect(keptOnEdit(content, files)).toEqual([
      { id: "a", contentStart: starts[0], imageTokens: 765 },
      { id: "b", contentStart: starts[1], imageTokens: 0 },
    ]);
  });

  it("drops a file whose line was deleted, or is no longer a line of its own", () => {
    const files = [image("a", "photo.png"), textFile("b", "notes.md")];
    const header = attachmentBlock(partOf(files[1]!)).split("\n")[0]!;
    expect(keptOnEdit(`Plan it\n\n${attachmentBlock(partOf(files[1]!))}`, files).map((file) => file.id)).toEqual(["b"]);
    expect(keptOnEdit(`See ${files[0]!.text} and ${header} above`, files)).toEqual([]);
  });

  it("two files with the same line take one occurrence each; a Windows line end still ends the line", () => {
    const files = [image("a", "photo.png"), image("b", "photo.png")];
    const line = files[0]!.text!;
    expect(keptOnEdit(`Again\r\n${line}\r\n`, files)).toEqual([{ id: "a", contentStart: 7, imageTokens: 765 }]);
    expect(keptOnEdit(`${line}\n${line}`, files).map((file) => [file.id, file.contentStart])).toEqual([["a", 0], ["b", line.length + 1]]);
  });
});
