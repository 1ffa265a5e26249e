import { notFound } from "next/navigation";
import { getConversation, meter, timeline } from "@/lib/chat/operations";
import { isDemoMode } from "@/lib/llm/client";
import { AppError } from "@/lib/errors";
import { ConversationScreen } from "@/components/chat/ConversationScreen";

export const dynamic = "force-dynamic";

// The newest items the page carries; earlier ones load on scroll ("Load earlier").
const FIRST_PAGE = 100;

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  let conversation;
  try {
    conversation = await getConversation(id);
  } catch (error) {
    if (error instanceof AppError && (error.code === "not_found" || error.code === "invalid_input")) notFound();
    throw error;
  }
  const [page, context] = await Promise.all([timeline({ conversationId: id, limit: FIRST_PAGE }), meter(id).catch(() => null)]);
  return (
    <ConversationScreen
      conversation={conversation}
      initialItems={page.items}
      initialHasEarlier={page.hasEarlier}
      initialMeter={context}
      demo={isDemoMode()}
    />
  );
}
