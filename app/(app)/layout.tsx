import { listConversations } from "@/lib/chat/operations";
import { requirePageUser } from "@/lib/auth/current-user";
import { ConversationSidebar } from "@/components/sidebar/ConversationSidebar";
import { AppShell } from "@/components/shell/AppShell";
import type { ConversationSummary } from "@/lib/views";

async function loadConversations(user: Awaited<ReturnType<typeof requirePageUser>>) {
  try {
    return { conversations: await listConversations(user), error: null };
  } catch (error) {
    return { conversations: [] as ConversationSummary[], error: error instanceof Error ? error.message : String(error) };
  }
}

/** Everything behind the sign-in: the sidebar with the user's own conversations. */
export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const user = await requirePageUser();
  const { conversations, error } = await loadConversations(user);
  const me = { email: user.email, admin: user.role === "admin" };
  return <AppShell sidebar={<ConversationSidebar initialConversations={conversations} loadError={error} user={me} />}>{children}</AppShell>;
}
