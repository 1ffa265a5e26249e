import { listConversations } from "@/lib/chat/operations";
import { requirePageUser } from "@/lib/auth/current-user";
import { ConversationSidebar } from "@/components/sidebar/ConversationSidebar";
import { SkipLink } from "@/components/ui/SkipLink";
import { AppShell } from "@/components/shell/AppShell";
import type { ConversationSummary } from "@/lib/views";
import { describeDatabaseError } from "@/lib/db/database-cause";

async function loadConversations(user: Awaited<ReturnType<typeof requirePageUser>>) {
  try {
    return { conversations: await listConversations(user), error: null };
  } catch (error) {
    // In words, never the driver's message; the list is not shown empty (which reads as data loss).
    return { conversations: [] as ConversationSummary[], error: `Your conversations could not be loaded. ${describeDatabaseError(error)}` };
  }
}

/** Everything behind the sign-in: the sidebar with the user's own conversations. */
export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const user = await requirePageUser();
  const { conversations, error } = await loadConversations(user);
  const me = { email: user.email, admin: user.role === "admin" };
  return (
    <>
      <SkipLink />
      <AppShell sidebar={<ConversationSidebar initialConversations={conversations} loadError={error} user={me} />}>{children}</AppShell>
    </>
  );
}
