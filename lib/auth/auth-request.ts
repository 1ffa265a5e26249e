// A request to /api/auth as the library gets it: the body read within its limit (413
// past it, before anything is parsed or stored) and the client address chain set by us
// alone (lib/auth/client-address.ts).
import { config } from "../config";
import { CLIENT_CHAIN_HEADER, clientChain } from "./client-address";
import { AUTH_BODY_LIMIT, readBoundedBody } from "./request-body";

function tooLarge(): Response {
  return Response.json(
    { code: "BODY_TOO_LARGE", message: `The request body is larger than ${AUTH_BODY_LIMIT.toLocaleString("en-US")} bytes, the limit for sign-in and account requests.` },
    { status: 413 },
  );
}

function withClientChain(request: Request): Headers {
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_CHAIN_HEADER);
  const chain = clientChain(request.headers, Boolean(config().STRATA_TRUSTED_PROXIES?.trim()));
  if (chain) headers.set(CLIENT_CHAIN_HEADER, chain);
  return headers;
}

/** A GET (session reads, OAuth callbacks): no body, only the address. */
export function authGetRequest(request: Request): Request {
  return new Request(request.url, { method: request.method, headers: withClientChain(request) });
}

/** A POST: the body within AUTH_BODY_LIMIT, or the 413 answer. */
export async function authPostRequest(request: Request): Promise<Request | Response> {
  const body = await readBoundedBody(request);
  if (!body.ok) return tooLarge();
  const headers = withClientChain(request);
  headers.delete("content-length");
  return new Request(request.url, { method: request.method, headers, body: body.bytes });
}
