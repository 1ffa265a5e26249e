// Where the reader was in each conversation, for this tab: the row at the top of the
// view and how far into it, so a reload or Back opens at the same place. Kept in
// sessionStorage (per tab, like the opened compactions); a row key, not a pixel
// offset, because rows above are virtualized and measured as they render.
import { z } from "zod";

export type ScrollPlace = { key: string; offset: number };

const placeSchema = z.object({ key: z.string().min(1).max(200), offset: z.number().finite() });

const storageKey = (conversationId: string) => `strata:scroll:${conversationId}`;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    // Storage can be switched off; the view then simply opens at the bottom.
    return null;
  }
}

/** Null when the reader is following the newest messages (the default on opening). */
export function rememberPlace(conversationId: string, place: ScrollPlace | null): void {
  const store = storage();
  if (!store) return;
  try {
    if (place) store.setItem(storageKey(conversationId), JSON.stringify(place));
    else store.removeItem(storageKey(conversationId));
  } catch {
    // A full storage only costs the remembered place.
  }
}

export function rememberedPlace(conversationId: string): ScrollPlace | null {
  const text = storage()?.getItem(storageKey(conversationId));
  if (!text) return null;
  try {
    const parsed = placeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
