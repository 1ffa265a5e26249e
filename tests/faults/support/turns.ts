// Clients that share a conversation wait their turn: the turn gate refuses a send while
// another turn runs ("busy"), so these suites' concurrent clients retry, as a person
// would after the refusal. Crashed children leave a lease that expires after
// STRATA_TURN_LEASE_MS (short in this suite, ./env.ts).
import * as ops from "../../../lib/chat/operations";
import { AppError } from "../../../lib/errors";

export async function startTurnWhenFree(...args: Parameters<typeof ops.startTurn>): ReturnType<typeof ops.startTurn> {
  for (;;) {
    try {
      return await ops.startTurn(...args);
    } catch (error) {
      if (!(error instanceof AppError && error.code === "busy")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
    }
  }
}
