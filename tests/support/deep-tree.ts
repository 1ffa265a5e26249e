// The shapes of compaction trees the timeline must read well, generated without a
// model: the chain that conversations compressed before the tree rule have (every
// fold one level higher, L22 after 24 compactions at a 2k window), and a balanced
// tree of fan-out 4. Rows are plain records; tests insert them with Prisma
// (integration) or SQL (browser tests).
import { randomUUID } from "node:crypto";

export type TreeMessage = { seq: number; role: "user" | "assistant"; content: string; pinned: boolean };

export type TreeCompaction = {
  id: string;
  level: number;
  fromSeq: number;
  toSeq: number;
  summary: string;
  parentId: string | null;
  coveredMessageCount: number;
  /** Set when the summary has left the model's view: the line that stands for it there. */
  outOfView?: string;
};

export type GeneratedTree = { messages: TreeMessage[]; compactions: TreeCompaction[] };

/** A word that occurs in message #1 only (searching it must open #1). */
export const FIRST_MESSAGE_WORD = "zeppelinite";
/** The pinned message's text. */
export const PINNED_TEXT = "Pinned: the vault combination is 4417-alpha";
export const PINNED_SEQ = 5;

const TOPICS = [
  "the harbour lighthouse budget", "a lisbon tram itinerary", "the orchard irrigation plan", "choosing a postgres index",
  "the bakery's sourdough schedule", "a violin practice routine", "the museum audio guide", "renting a canal boat",
  "the chess opening repertoire", "a solar panel quote", "the wedding seating chart", "migrating the mail server",
  "the marathon training block", "a bird survey transect", "the kitchen renovation", "a podcast launch checklist",
  "the greenhouse heater", "a tax filing question", "the robot vacuum map", "planning a glacier hike",
  "the choir rehearsal order", "a bicycle gear ratio", "the library reading list", "the quarterly sales review",
] as const;

function messages(count: number): TreeMessage[] {
  return Array.from({ length: count }, (_, index) => {
    const seq = index + 1;
    const topic = TOPICS[Math.floor(index / 36) % TOPICS.length]!;
    const user = seq % 2 === 1;
    const content =
      seq === 1
        ? `The quartermaster logged the ${FIRST_MESSAGE_WORD} cargo in the first crate; keep this for later.`
        : seq === PINNED_SEQ
          ? PINNED_TEXT
          : user
            ? `Question ${seq} about ${topic}: what should we settle next?`
            : `Answer ${seq}: for ${topic}, the next step is to compare two options and write the choice down.`;
    return { seq, role: user ? "user" : "assistant", content, pinned: seq === PINNED_SEQ };
  });
}

// Every block opens with the demo model's generic line, as on every block of the demo:
// only the line after it tells blocks apart.
function summary(level: number, fromSeq: number, toSeq: number, index: number): string {
  const topic = TOPICS[index % TOPICS.length]!;
  return [
    "Summary of the conversation so far.",
    `Level ${level} recap of ${topic}, messages ${fromSeq} to ${toSeq}. The user settled on a plan and kept the open questions.`,
    `FACT topic_${fromSeq}=${toSeq}`,
  ].join("\n");
}

function record(level: number, fromSeq: number, toSeq: number, index: number, coveredMessageCount: number): TreeCompaction {
  return { id: randomUUID(), level, fromSeq, toSeq, summary: summary(level, fromSeq, toSeq, index), parentId: null, coveredMessageCount };
}

/**
 * Today's chain: L1 covers the first `chunk` messages; each later fold takes the
 * previous top summary and the next `chunk` messages, one level higher. `levels`
 * folds, then the newest `recent` messages stay uncovered beside one fresh L1.
 */
export function chainTree(count: number, levels: number, recent = 8): GeneratedTree {
  const list = messages(count);
  const chunk = Math.floor((count - recent) / (levels + 1));
  const compactions: TreeCompaction[] = [];
  let below: TreeCompaction | null = null;
  for (let level = 1; level <= levels; level++) {
    const top: TreeCompaction = record(level, 1, level * chunk, level, level * chunk);
    if (below) below.parentId = top.id;
    compactions.push(top);
    below = top;
  }
  compactions.push(record(1, levels * chunk + 1, (levels + 1) * chunk, levels + 1, chunk));
  return { messages: list, compactions };
}

/** A balanced tree: level-1 blocks of `chunk` messages, each level merging up to `fanOut` blocks of the level below. */
export function balancedTree(count: number, chunk = 12, fanOut = 4, recent = 8): GeneratedTree {
  const list = messages(count);
  const compactions: TreeCompaction[] = [];
  let level: TreeCompaction[] = [];
  let index = 0;
  for (let from = 1; from + chunk - 1 <= count - recent; from += chunk) {
    level.push(record(1, from, from + chunk - 1, index++, chunk));
  }
  compactions.push(...level);
  for (let height = 2; level.length >= fanOut; height++) {
    const next: TreeCompaction[] = [];
    // Only full groups merge: the newest (< fanOut) blocks of each level stay on top.
    const full = level.length - (level.length % fanOut);
    for (let start = 0; start < full; start += fanOut) {
      const group = level.slice(start, start + fanOut);
      const parent = record(height, group[0]!.fromSeq, group.at(-1)!.toSeq, index++, group.reduce((sum, c) => sum + c.coveredMessageCount, 0));
      for (const child of group) child.parentId = parent.id;
      next.push(parent);
    }
    compactions.push(...next);
    level = next;
  }
  return { messages: list, compactions };
}

/** Parents before children, as the parent foreign key wants them inserted. */
export function insertionOrder(tree: GeneratedTree): TreeCompaction[] {
  return [...tree.compactions].sort((a, b) => b.level - a.level);
}
