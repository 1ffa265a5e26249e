import { conversationPage } from "@/lib/chat/operations";
import { requirePageUser } from "@/lib/auth/current-user";
import { ConversationSidebar } from "@/components/sidebar/ConversationSidebar";
import { SkipLink } from "@/components/ui/SkipLink";
import { AppShell } from "@/components/shell/AppShell";
import type { ConversationPage } from "@/lib/views";
import { PAGE_SIZE } from "@/components/sidebar/page-size";
import { describeDatabaseError } from "@/lib/db/database-cause";

async function loadConversations(user: Awaited<ReturnType<typeof requirePageUser>>) {
  try {
    return { page: await conversationPage(user, { limit: PAGE_SIZE }), error: null };
  } catch (error) {
    // In words, never the driver's message; the list is not shown empty (which reads as data loss).
    return { page: { pinned: [], items: [], next: null } satisfies ConversationPage, error: `Your conversations could not be loaded. ${describeDatabaseError(error)}` };
  }
}

/** Everything behind the sign-in: the sidebar with the user's own conversations. */
export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const user = await requirePageUser();
  const { page, error } = await loadConversations(user);
  const me = { email: user.email, admin: user.role === "admin" };
  return (
    <>
      <SkipLink />
      <AppShell sidebar={<ConversationSidebar initialPage={page} loadError={error} user={me} />}>{children}</AppShell>
    </>
  );
}
