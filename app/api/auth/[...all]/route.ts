// better-auth's own endpoints: sign-up, sign-in, sign-out, session, OAuth callbacks.
// Public by design; the library checks origins and applies the sign-in rate limit here.
// Before it runs, the body is bounded and the client's address resolved (lib/auth).
import { getAuth } from "@/lib/auth/auth";
import { authGetRequest, authPostRequest } from "@/lib/auth/auth-request";
import { withTransportSecurity } from "@/lib/http/origin";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  return withTransportSecurity(request, await (await getAuth()).handler(authGetRequest(request)));
}

export async function POST(request: Request) {
  const prepared = await authPostRequest(request);
  if (prepared instanceof Response) return withTransportSecurity(request, prepared);
  return withTransportSecurity(request, await (await getAuth()).handler(prepared));
}
