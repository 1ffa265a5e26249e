"use client";
// The browser's side of the owner's GET reads (lib/http/owner-reads.ts): the URL built
// from the read's entry, the answer checked against its schema. Answers come back in the
// shape of a server action's result, so a failure is a value the caller shows, never a throw.
import type { ActionResult } from "@/lib/errors";
import { ownerReads, readUrl, type OwnerRead, type ReadAnswer, type ReadQuery } from "@/lib/http/owner-reads";

export async function fetchRead<K extends OwnerRead>(read: K, id: string, query?: ReadQuery<K>): Promise<ActionResult<ReadAnswer<K>>> {
  let response: Response;
  try {
    response = await fetch(readUrl(read, id, query), { cache: "no-store" });
  } catch {
    return { ok: false, error: { code: "unavailable", message: "The server could not be reached." } };
  }
  const body = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
    return { ok: false, error: { code: error?.code ?? "unavailable", message: error?.message ?? `The server answered ${response.status}.` } };
  }
  const parsed = ownerReads[read].answer.safeParse(body);
  if (!parsed.success) return { ok: false, error: { code: "unavailable", message: "The server sent an answer this page cannot read." } };
  return { ok: true, data: parsed.data as ReadAnswer<K> };
}

/** For a query function: the read's answer, or a thrown error carrying the server's message. */
export async function readOrThrow<K extends OwnerRead>(read: K, id: string, query?: ReadQuery<K>): Promise<ReadAnswer<K>> {
  const result = await fetchRead(read, id, query);
  if (!result.ok) throw new Error(result.error.message);
  return result.data;
}
