"use client";
// The timeline's reads (components/timeline/timeline-reads.ts) for a shared link: GET
// requests to the token-scoped routes under /api/shared/<token>, which reach that one
// conversation only. Answers come back in the shape of the server actions' results.
import type { ActionResult } from "@/lib/errors";
import type { TimelineReads } from "@/components/timeline/timeline-reads";

type Result<K extends keyof TimelineReads> = Awaited<ReturnType<TimelineReads[K]>>;

async function getJson<T>(url: string): Promise<ActionResult<T>> {
  try {
    const response = await fetch(url, { cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" });
    const body = (await response.json()) as unknown;
    if (response.ok) return { ok: true, data: body as T };
    const error = (body as { error?: { code?: string; message?: string } }).error;
    return { ok: false, error: { code: error?.code ?? "unavailable", message: error?.message ?? `The server answered ${response.status}.` } };
  } catch {
    return { ok: false, error: { code: "unavailable", message: "The server could not be reached." } };
  }
}

function query(values: Record<string, number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function sharedReads(token: string): TimelineReads {
  const base = `/api/shared/${encodeURIComponent(token)}`;
  return {
    timeline: ({ beforeSeq, limit }) => getJson<Extract<Result<"timeline">, { ok: true }>["data"]>(`${base}/messages${query({ beforeSeq, limit })}`),
    children: ({ compactionId, afterSeq, limit }) =>
      getJson<Extract<Result<"children">, { ok: true }>["data"]>(
        `${base}/compactions/${encodeURIComponent(compactionId)}/children${query({ afterSeq, limit })}`,
      ),
    treePath: ({ seq }) => getJson<Extract<Result<"treePath">, { ok: true }>["data"]>(`${base}/path${query({ seq })}`),
    coveredPinned: () => getJson<Extract<Result<"coveredPinned">, { ok: true }>["data"]>(`${base}/pinned`),
  };
}
