import { notFound } from "next/navigation";
import { changeState, getConversation, meter, timeline } from "@/lib/chat/operations";
import { maxAttachmentBytes } from "@/lib/attachments/limits";
import { maxMessageChars } from "@/lib/chat/inputs";
import { requirePageUser } from "@/lib/auth/current-user";
import { isDemoMode } from "@/lib/llm/client";
import { AppError } from "@/lib/errors";
import { ConversationScreen } from "@/components/chat/ConversationScreen";

export const dynamic = "force-dynamic";

// The newest items the page carries; earlier ones load on scroll ("Load earlier").
const FIRST_PAGE = 100;

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser();
  const { id } = await params;
  let conversation;
  try {
    conversation = await getConversation(user, id);
  } catch (error) {
    // Another user's conversation is not found either: the same page, the same status.
    if (error instanceof AppError && (error.code === "not_found" || error.code === "invalid_input")) notFound();
    throw error;
  }
  const [page, context, changes] = await Promise.all([
    timeline(user, { conversationId: id, limit: FIRST_PAGE }),
    meter(user, id).catch(() => null),
    changeState(user, id),
  ]);
  return (
    <ConversationScreen
      conversation={conversation}
      initialItems={page.items}
      initialHasEarlier={page.hasEarlier}
      initialMeter={context}
      initialVersion={changes.version}
      maxMessageChars={maxMessageChars()}
      maxAttachmentBytes={maxAttachmentBytes()}
      demo={isDemoMode()}
    />
  );
}
