// The JSON reads behind a shared link (app/api/shared/**): no session, the token in the
// URL is the only key, and a client asking for links that do not exist is limited by its
// address (lib/chat/share-ops.ts).
import { peerAddress } from "../auth/client-address";
import { handle, jsonResponse } from "./handlers";
import { withTransportSecurity } from "./origin";

export type SharedRead = (token: string, client: string | null, query: URLSearchParams) => Promise<unknown>;

/** Answers a GET for a shared link: the read's value as JSON, or its error with its status. */
export async function sharedRoute(request: Request, params: Promise<{ token: string }>, read: SharedRead): Promise<Response> {
  return sharedResponse(request, params, async (token, client, query) => jsonResponse(await read(token, client, query)));
}

/** The same for an answer that is not JSON (a file): `answer` makes the response, errors are answered as JSON. */
export async function sharedResponse(
  request: Request,
  params: Promise<{ token: string }>,
  answer: (token: string, client: string | null, query: URLSearchParams) => Promise<Response>,
): Promise<Response> {
  const response = await handle(async () => {
    const { token } = await params;
    return answer(token, peerAddress(request.headers), new URL(request.url).searchParams);
  });
  // Nothing a shared reader fetched should name where it was opened from.
  response.headers.set("referrer-policy", "no-referrer");
  return withTransportSecurity(request, response);
}

/** A query parameter as a number (NaN for text, which validation refuses), or undefined when absent. */
export function queryNumber(query: URLSearchParams, name: string): number | undefined {
  return query.has(name) ? Number(query.get(name)) : undefined;
}
