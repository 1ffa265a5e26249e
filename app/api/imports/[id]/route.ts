import { importStatus } from "@/lib/chat/imports";
import { handleUser, jsonResponse } from "@/lib/http/handlers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/imports/:id — the owner's view of an import (404 for anyone else). */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleUser(request, async (user) => jsonResponse({ import: await importStatus(user, (await params).id) }));
}
