import type { Metadata, Viewport } from "next";
import { listConversations } from "@/lib/chat/operations";
import { ConversationSidebar } from "@/components/sidebar/ConversationSidebar";
import type { ConversationSummary } from "@/lib/views";
import "./globals.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Strata",
  description: "Long LLM conversations that never hit the context limit and never lose a word.",
  icons: { icon: "data:," },
};

export const viewport: Viewport = {
  colorScheme: "light dark",
};

async function loadConversations(): Promise<{ conversations: ConversationSummary[]; error: string | null }> {
  try {
    return { conversations: await listConversations(), error: null };
  } catch (error) {
    return { conversations: [], error: error instanceof Error ? error.message : String(error) };
  }
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const { conversations, error } = await loadConversations();
  return (
    <html lang="en">
      <body className="flex h-dvh overflow-hidden">
        <ConversationSidebar initialConversations={conversations} loadError={error} />
        <main className="flex min-w-0 flex-1 flex-col">{children}</main>
      </body>
    </html>
  );
}
