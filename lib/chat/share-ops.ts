// Read-only share links: the owner creates, lists and revokes them; anyone with a live
// token reads that one conversation through the same reads the owner's view uses, scoped
// to it. The view is live (what the conversation holds when the link is opened), not a
// snapshot: the tree keeps changing under a conversation (later compactions summarize
// across any cut), and a snapshot that stays true would mean copying it.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { sentAttachmentFileIn, type AttachmentFile, type AttachmentView } from "../db/attachments";
import { getDb } from "../db/client";
import { bucketState, takeFromBucket, type Bucket } from "../db/rate-limit";
import * as shares from "../db/shares";
import { AppError } from "../errors";
import type { TimelineItem } from "../views";
import { type Actor, parse } from "./actor";
import { conversationAttachments } from "./attachment-ops";
import { childrenInput, idSchema, seqNumber, timelineInput } from "./inputs";
import { compactionChildren, coveredPinned, timeline, treePath } from "./navigation-ops";

/** Live links one conversation may have at once. */
export const MAX_SHARE_LINKS = 50;
/** Random bytes in a token: 256 bits, sent as 43 base64url characters. */
const TOKEN_BYTES = 32;
const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export const SHARE_EXPIRY_DAYS = [1, 7, 30] as const;

export const createShareInput = z.object({
  conversationId: idSchema,
  /** Null: the link never expires. */
  expiresInDays: z.literal(SHARE_EXPIRY_DAYS, { message: "Choose never, 1, 7 or 30 days." }).nullable(),
});

export const revokeShareInput = z.object({ conversationId: idSchema, linkId: idSchema });

export const sharedTimelineInput = timelineInput.omit({ conversationId: true });
export const sharedPathInput = z.object({ seq: seqNumber });

const DAY_MS = 86_400_000;

export function hashShareToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new link; the token is in this answer only (the database keeps its hash). */
export async function createShareLink(actor: Actor, input: unknown): Promise<{ link: shares.ShareLinkView; token: string }> {
  const { conversationId, expiresInDays } = parse(createShareInput, input);
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  const expiresAt = expiresInDays === null ? null : new Date(Date.now() + expiresInDays * DAY_MS);
  const link = await shares.createShareLink(await getDb(), actor.id, conversationId, { tokenHash: hashShareToken(token), expiresAt }, MAX_SHARE_LINKS);
  return { link, token };
}

export async function listShareLinks(actor: Actor, conversationId: unknown): Promise<shares.ShareLinkView[]> {
  return shares.listShareLinks(await getDb(), actor.id, parse(idSchema, conversationId));
}

export async function revokeShareLink(actor: Actor, input: unknown): Promise<void> {
  const { conversationId, linkId } = parse(revokeShareInput, input);
  await shares.revokeShareLink(await getDb(), actor.id, conversationId, linkId);
}

// Tokens that open nothing, per client address: guessing is hopeless at 256 bits, but a
// client that keeps trying is told to stop, whatever it asks for next (a live token too,
// so the refusal tells nothing about any token).
const MISS_WINDOW_MS = 10 * 60_000;
const MAX_MISSES = 60;
const missBucket = (client: string): Bucket => ({ key: `share-miss:${client}`, max: MAX_MISSES, windowMs: MISS_WINDOW_MS });

/** Who asks, as far as limits go: the client's address, or null where it is not known (then there is no limit). */
export type ShareClient = string | null;

async function target(token: unknown, client: ShareClient): Promise<shares.SharedTarget> {
  const db = await getDb();
  const bucket = client ? missBucket(client) : null;
  // Refused once MAX_MISSES were counted (bucketState allows up to max, inclusive).
  if (bucket && !(await bucketState(db, { ...bucket, max: bucket.max - 1 })).allowed) {
    throw new AppError("rate_limited", "Too many requests for shared links that do not exist. Try again later.");
  }
  const parsed = tokenSchema.safeParse(token);
  const found = parsed.success ? await shares.findSharedTarget(db, hashShareToken(parsed.data)) : null;
  if (found) return found;
  if (bucket) await takeFromBucket(db, bucket);
  throw shares.sharedNotFound();
}

/** Reads the owner's way, scoped to the link's conversation; its vanishing meanwhile reads as the link's. */
async function asOwner<T>(found: shares.SharedTarget, read: (owner: Actor) => Promise<T>): Promise<T> {
  try {
    return await read({ id: found.ownerId, role: "user" });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found" && error.message.includes(found.conversationId)) throw shares.sharedNotFound();
    throw error;
  }
}

export type SharedConversationView = { title: string; items: TimelineItem[]; hasEarlier: boolean };

/** The page: the title and the newest items; notes the link as opened. */
export async function openSharedConversation(token: unknown, client: ShareClient, limit: number): Promise<SharedConversationView> {
  const found = await target(token, client);
  const page = await asOwner(found, (owner) => timeline(owner, { conversationId: found.conversationId, limit }));
  await shares.markShareOpened(await getDb(), found.linkId);
  return { title: found.title, items: page.items, hasEarlier: page.hasEarlier };
}

export async function sharedTimeline(token: unknown, client: ShareClient, input: unknown) {
  const found = await target(token, client);
  const { beforeSeq, limit } = parse(sharedTimelineInput, input);
  return asOwner(found, (owner) => timeline(owner, { conversationId: found.conversationId, limit, ...(beforeSeq ? { beforeSeq } : {}) }));
}

export async function sharedChildren(token: unknown, client: ShareClient, input: unknown) {
  const found = await target(token, client);
  const parsed = parse(childrenInput, input);
  // Another conversation's compaction (the owner's or anyone's) answers as an unknown one.
  if (!(await shares.compactionInConversation(await getDb(), found.ownerId, found.conversationId, parsed.compactionId))) throw shares.sharedNotFound();
  return asOwner(found, (owner) => compactionChildren(owner, parsed));
}

export async function sharedTreePath(token: unknown, client: ShareClient, input: unknown) {
  const found = await target(token, client);
  const { seq } = parse(sharedPathInput, input);
  return asOwner(found, (owner) => treePath(owner, { conversationId: found.conversationId, seq }));
}

/** The files on the shared conversation's sent messages (no bytes): the chips the owner sees. */
export async function sharedAttachments(token: unknown, client: ShareClient): Promise<AttachmentView[]> {
  const found = await target(token, client);
  return asOwner(found, (owner) => conversationAttachments(owner, found.conversationId));
}

/** One of those files; any other id (another conversation's, an unsent upload) answers as the link's not-found. */
export async function sharedAttachmentFile(token: unknown, client: ShareClient, id: unknown): Promise<AttachmentFile> {
  const found = await target(token, client);
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) throw shares.sharedNotFound();
  try {
    return await sentAttachmentFileIn(await getDb(), found.ownerId, found.conversationId, parsed.data);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") throw shares.sharedNotFound();
    throw error;
  }
}

export async function sharedPinned(token: unknown, client: ShareClient) {
  const found = await target(token, client);
  return asOwner(found, (owner) => coveredPinned(owner, found.conversationId));
}
