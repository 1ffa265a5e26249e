// Child process of the crash test (tests/faults/crash.test.ts): drives one
// conversation through the real chat loop and manual compactions until it is killed.
// Every write the app acknowledged is printed on stdout, after it returned:
//   READY                      connected and warmed up (then waits for GO on stdin if CRASH_WAIT_FOR_GO=1)
//   M <seq> <role>             a message was stored (the turn yielded it)
//   C <id>                     a compaction was stored
//   BEGIN <what> / END <what>  a turn or a manual compaction started / ended
// Environment: DATABASE_URL, OPENAI_BASE_URL, CRASH_USER_ID (the owner it acts as),
// CRASH_CONVERSATION_ID, CRASH_SEED;
// CRASH_TURNS=n stops after n turns (the concurrency test's second process).
export {};
process.env.LOG_LEVEL = "silent";
process.env.OPENAI_API_KEY ??= "test";

const ops = await import("../../lib/chat/operations");
const { backgroundSettled } = await import("../../lib/chat/compressor");
const { startTurnWhenFree } = await import("./support/turns");

const conversationId = process.env.CRASH_CONVERSATION_ID!;
const owner = { id: process.env.CRASH_USER_ID!, role: "user" as const };
const seed = Number(process.env.CRASH_SEED ?? 1);
const maxTurns = Number(process.env.CRASH_TURNS ?? Infinity);
const out = (line: string) => process.stdout.write(`${line}\n`);

// Warm up before READY (tiktoken's rank table, Prisma's first queries), so the
// random kill window is spent on real work.
await ops.meter(owner, conversationId);
out("READY");
// Started ahead of time by the parent: wait for its GO (stdin) before working.
if (process.env.CRASH_WAIT_FOR_GO === "1") {
  await new Promise<void>((resolve) => {
    let input = "";
    process.stdin.on("data", (chunk: Buffer) => {
      input += chunk.toString();
      if (input.includes("GO")) resolve();
    });
  });
  out("GO");
}
for (let turn = 1; turn <= maxTurns; turn++) {
  // A turn whose long reply makes the next compaction worthwhile (the turn itself may
  // compact, inline or in the background after the reply), then a manual compaction
  // (a summary call is in flight for the test server's summary latency).
  const fact = turn % 3 === 0 ? `\nFACT c${seed}_${turn}=v${turn}` : "";
  out("BEGIN turn");
  for await (const event of await startTurnWhenFree(owner, { conversationId, content: `Child ${seed}, turn ${turn}.${fact}\nREPLY_WORDS=${150 + (turn % 5) * 20}` })) {
    if (event.type === "message") out(`M ${event.message.seq} ${event.message.role}`);
    if (event.type === "compaction") out(`C ${event.compaction.id}`);
  }
  out("END turn");
  out("BEGIN compact");
  const result = await ops.compactNow(owner, { conversationId });
  for (const compaction of result.compactions) out(`C ${compaction.id}`);
  out("END compact");
  await backgroundSettled(conversationId);
}
const { closeDb } = await import("../../lib/db/client");
await closeDb();
out("DONE");
