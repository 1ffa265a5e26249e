// What several server processes on one PostgreSQL need from each other, on plain
// `pg` connections of their own (Prisma's pool has no session-level locks or LISTEN):
//
// - a per-conversation lease (a session advisory lock) held while a compaction is
//   decided and its summary written, so two instances never pay for the same summary.
//   The lock lives as long as the connection: a crashed instance releases it at once.
// - a stop signal (NOTIFY on one channel) so "stop" reaches a turn on any instance.
// - the user's answer to a tool call waiting for approval (NOTIFY on another), so it
//   reaches the instance whose turn waits, whichever instance received it.
//
// On the embedded database (PGlite, one process by construction) both are no-ops.
import pg from "pg";
import { config } from "../config";
import { logger } from "../log/logger";

/** The advisory lock namespace of conversation leases (first key of the two-int form). */
const LEASE_NAMESPACE = 0x53545241; // "STRA"
export const STOP_CHANNEL = "strata_stop_turn";
export const APPROVAL_CHANNEL = "strata_tool_approval";

type ClusterState = { pool?: pg.Pool | undefined; listener?: Promise<pg.Client> | undefined };
const holder = globalThis as unknown as { strataCluster?: ClusterState };
const state = (holder.strataCluster ??= {});

function pool(url: string): pg.Pool {
  if (!state.pool) {
    // One connection per conversation being compacted in this process at a time.
    state.pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000 });
    state.pool.on("error", (error) => logger.warn({ err: error.message }, "lease connection lost"));
  }
  return state.pool;
}

/** What a lease attempt gave: `work`'s result, or nothing because another holder had the lease. */
export type Leased<T> = { taken: true; value: T } | { taken: false };

async function leased<T>(conversationId: string, work: () => Promise<T>, wait: boolean): Promise<Leased<T>> {
  const url = config().DATABASE_URL;
  if (!url) return { taken: true, value: await work() };
  const client = await pool(url).connect();
  const key = [LEASE_NAMESPACE, conversationId];
  try {
    if (wait) await client.query("SELECT pg_advisory_lock($1, hashtext($2))", key);
    else if (!(await client.query<{ taken: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS taken", key)).rows[0]?.taken) {
      client.release();
      return { taken: false };
    }
  } catch (error) {
    client.release(true);
    throw error;
  }
  try {
    return { taken: true, value: await work() };
  } finally {
    // Unlock failing means the connection is gone, and the lock with it: drop the client.
    const unlocked = await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", key).then(
      () => true,
      (error: unknown) => {
        logger.warn({ err: String(error), conversationId }, "could not release a conversation lease");
        return false;
      },
    );
    client.release(!unlocked);
  }
}

/**
 * Runs `work` holding the conversation's lease across every instance on this
 * database. Waits while another instance holds it. Without DATABASE_URL: just runs.
 */
export async function withConversationLease<T>(conversationId: string, work: () => Promise<T>): Promise<T> {
  const result = await leased(conversationId, work, true);
  if (!result.taken) throw new Error("a waiting lease is always taken");
  return result.value;
}

/** withConversationLease without the wait: nothing runs while another holder has the lease. */
export function tryConversationLease<T>(conversationId: string, work: () => Promise<T>): Promise<Leased<T>> {
  return leased(conversationId, work, false);
}

/** Tells every instance (this one included) to stop the conversation's running turns. */
export async function broadcastStop(conversationId: string): Promise<void> {
  const url = config().DATABASE_URL;
  if (!url) return;
  await pool(url).query("SELECT pg_notify($1, $2)", [STOP_CHANNEL, conversationId]);
}

/** Sends a tool call's answer (`payload`, JSON) to every instance (this one included). */
export async function broadcastApproval(payload: string): Promise<void> {
  const url = config().DATABASE_URL;
  if (!url) return;
  await pool(url).query("SELECT pg_notify($1, $2)", [APPROVAL_CHANNEL, payload]);
}

/**
 * Listens for stop signals and approval answers from every instance; `onStop` gets the
 * conversation id, `onApproval` the answer's payload as sent. One listening connection
 * per process; reconnects after it is lost.
 */
export function listenForStops(onStop: (conversationId: string) => void, onApproval: (payload: string) => void = () => {}): void {
  const url = config().DATABASE_URL;
  if (!url || state.listener) return;
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url });
    client.on("notification", (message) => {
      if (message.channel === STOP_CHANNEL && message.payload) onStop(message.payload);
      if (message.channel === APPROVAL_CHANNEL && message.payload) onApproval(message.payload);
    });
    client.on("error", (error) => {
      logger.warn({ err: error.message }, "stop listener lost its connection; reconnecting");
      state.listener = undefined;
      setTimeout(() => listenForStops(onStop, onApproval), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${STOP_CHANNEL}`);
    await client.query(`LISTEN ${APPROVAL_CHANNEL}`);
    return client;
  };
  state.listener = connect().catch((error: unknown) => {
    logger.warn({ err: String(error) }, "could not listen for stop signals; retrying");
    state.listener = undefined;
    setTimeout(() => listenForStops(onStop, onApproval), 2000).unref();
    throw error;
  });
  state.listener.catch(() => undefined);
}

/** Closes the lease pool and the listener (shutdown, tests). */
export async function closeCluster(): Promise<void> {
  const { pool: leases, listener } = state;
  state.pool = undefined;
  state.listener = undefined;
  await Promise.allSettled([leases?.end(), listener?.then((client) => client.end())]);
}
