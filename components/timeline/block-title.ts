// What a collapsed block says about itself, so that a collapsed tree can be skimmed:
// the title the summarizer wrote when the row has one, otherwise a gist derived from
// the summary text. Summaries often open with a line that says nothing ("Summary of
// the conversation so far." on every block of the demo model): such openers are
// skipped, and the range always stands beside the title, so two blocks never read alike.
import type { SummarySections } from "@/lib/compression/types";
import type { CompactionView } from "@/lib/views";
import { SECTION_LABELS } from "./summary-preview";

export const TITLE_CHARS = 80;

type TitledBlock = Pick<CompactionView, "kind" | "level" | "fromSeq" | "toSeq" | "summary" | "sections" | "coveredMessageCount"> & {
  title?: string | null;
};

// A sentence that only announces a summary. Also matched as the prefix of a line
// ("Summary of the conversation so far: the user wants …"), then dropped from it.
const GENERIC =
  /^(?:here(?:'s| is)\s+|this is\s+)?(?:an?\s+|the\s+)?(?:brief\s+|short\s+|concise\s+|updated\s+|running\s+)?(?:summary|recap|overview)(?:\s+of\s+(?:the|this|our)\s+(?:conversation|discussion|chat|exchange|messages|session)(?:\s+so\s+far)?)?(?:\s+so\s+far)?\s*(?:[.:!]|$)/i;
const CONVERSATION_SO_FAR = /^(?:the\s+)?conversation\s+so\s+far\s*(?:[.:!]|$)/i;

function plain(line: string): string {
  return line
    .replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)+/, "")
    .replace(/(\*\*|__|`)/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function withoutOpener(sentence: string): string {
  let rest = sentence;
  for (let guard = 0; guard < 3; guard++) {
    const match = GENERIC.exec(rest) ?? CONVERSATION_SO_FAR.exec(rest);
    if (!match) break;
    rest = rest.slice(match[0].length).trim();
  }
  return rest;
}

function sentences(text: string): string[] {
  return text
    .split("\n")
    .map(plain)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/))
    .map((sentence) => withoutOpener(sentence.trim()))
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

/** At most `max` characters, cut at a word when one ends late enough. */
export function clipTitle(text: string, max = TITLE_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:–-]+$/, "")}…`;
}

function firstSectionEntry(sections: SummarySections): string | null {
  for (const [key] of SECTION_LABELS) {
    const entry = sections[key].map(plain).find((text) => /[\p{L}\p{N}]/u.test(text));
    if (entry) return entry;
  }
  return null;
}

/** "#12–#40": the originals a block stands for. */
export function blockRange(block: Pick<CompactionView, "fromSeq" | "toSeq">): string {
  return block.fromSeq === block.toSeq ? `#${block.fromSeq}` : `#${block.fromSeq}–#${block.toSeq}`;
}

/** The block's short title: its own when it has one, else the first sentence of its summary that says something. */
export function blockTitle(block: TitledBlock): string {
  const own = block.title?.trim();
  if (own) return clipTitle(own);
  if (block.kind === "truncation") return `${block.coveredMessageCount} messages dropped from the model's view`;
  const derived = (block.sections ? firstSectionEntry(block.sections) : null) ?? sentences(block.summary)[0];
  return derived ? clipTitle(derived) : `Messages ${blockRange(block)}`;
}

/** Everything the header shows in one line, for its title attribute and for screen readers. */
export function blockLabel(block: TitledBlock): string {
  return `L${block.level} · ${blockTitle(block)} · ${blockRange(block)}`;
}
