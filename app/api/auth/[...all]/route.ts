// better-auth's own endpoints: sign-up, sign-in, sign-out, session, OAuth callbacks.
// Public by design; the library checks origins and applies the sign-in rate limit here.
import { getAuth } from "@/lib/auth/auth";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  return (await getAuth()).handler(request);
}

export async function POST(request: Request) {
  return (await getAuth()).handler(request);
}
