// Who may change a conversation at the same time, and how. Every mechanism the chat
// layer uses is entered here; each protects one thing, and they are taken in this order
// (never an earlier one while holding a later one):
//
// 1. The turn gate (./turn-gate.ts; lib/db/turn-lease.ts): the context a turn is built
//    from. One turn, or one change of the context (edit, version switch, undo, message
//    delete), at a time per conversation, across processes: a lease on the conversation
//    row, renewed while the turn runs, expiring by itself after a crash. Never waited
//    for: a second taker is refused ("busy", 409), so nothing holds a later lock while
//    it waits for the gate.
// 2. The compaction lock, this process's part (./compaction-lock.ts, a KeyedLock): one
//    compaction of the conversation decided and paid for at a time here. Rewinds and
//    edits take only this part, after stopping the background compaction here.
// 3. The compaction lock, every instance's part (lib/db/cluster.ts, a session advisory
//    lock on a connection of its own): the same across instances. Held through the
//    summary call; released at once if the instance dies.
// 4. The conversation row lock (lib/db: `SELECT ... FOR UPDATE` or `UPDATE ...
//    RETURNING` on the conversation row inside one statement or transaction): what one
//    write does to the conversation's rows, atomically. Never held across a model call.
//
// Not a lock: the history version. Rewinds, edits and Continue bump it under the row
// lock; a compaction prepared from an older history is refused at its save, under the
// row lock (lib/db/compactions.ts). That is what makes 2 enough for edits: a compaction
// another instance prepared meanwhile is not waited for but cannot be saved.
//
// A turn takes 1, then (only when it compacts) 2 and 3, then 4 to save. A background
// compaction and a rewind of whole turns start at 2.
export { openTurnGate, openTurnGateWithMessage, type GateMessage, type TurnGate } from "./turn-gate";
export {
  backgroundRun,
  startBackgroundRun,
  withCompactionLock,
  withCompactionLockIfFree,
  withCompactionStoppedHere,
  type BackgroundRun,
} from "./compaction-lock";
