// A GET route for one of the owner's reads (lib/http/owner-reads.ts): the signed-in
// user (401 without one), the query parsed with the read's own schema, and the answer
// typed as the browser will check it. Ownership is the operation's to check: another
// user's id is "not found", exactly like an unknown one.
import type { z } from "zod";
import type { CurrentUser } from "../auth/current-user";
import { parse } from "../chat/actor";
import { handleUser, jsonResponse } from "./handlers";
import { ownerReads, queryOf, type OwnerRead, type OwnerReads } from "./owner-reads";

type Work<K extends OwnerRead> = (
  user: CurrentUser,
  id: string,
  query: z.output<OwnerReads[K]["query"]>,
) => Promise<z.input<OwnerReads[K]["answer"]>>;

export function ownerReadRoute<K extends OwnerRead>(read: K, work: Work<K>) {
  return (request: Request, context?: { params: Promise<{ id?: string }> }) =>
    handleUser(request, async (user) => {
      const query = parse(ownerReads[read].query, queryOf(request.url)) as z.output<OwnerReads[K]["query"]>;
      // A route without an [id] segment gets no params from Next at all.
      return jsonResponse(await work(user, (await context?.params)?.id ?? "", query));
    });
}
