import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { openSharedConversation } from "@/lib/chat/operations";
import { peerAddress } from "@/lib/auth/client-address";
import { AppError } from "@/lib/errors";
import { SharedConversation } from "@/components/share/SharedConversation";

export const dynamic = "force-dynamic";

// Search engines keep out, and the address (the token is the key) goes to no other site.
export const metadata: Metadata = {
  title: "Shared conversation · Strata",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

// The newest items the page carries; earlier ones load as on the owner's page.
const FIRST_PAGE = 100;

function TooManyTries({ message }: { message: string }) {
  return (
    <main className="flex flex-1 items-center justify-center p-8" data-testid="shared-rate-limited">
      <p role="alert" className="max-w-sm text-center text-[13px] text-neutral-700 dark:text-neutral-300">
        {message}
      </p>
    </main>
  );
}

/** A shared link: public by design; the token alone decides what it shows (lib/chat/share-ops.ts). */
export default async function SharedPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  let shared;
  try {
    shared = await openSharedConversation(token, peerAddress(await headers()), FIRST_PAGE);
  } catch (error) {
    // Unknown, revoked and expired links end on the same page, with the same status.
    if (error instanceof AppError && (error.code === "not_found" || error.code === "invalid_input")) notFound();
    if (error instanceof AppError && error.code === "rate_limited") return <TooManyTries message={error.message} />;
    throw error;
  }
  return <SharedConversation token={token} title={shared.title} initialItems={shared.items} initialHasEarlier={shared.hasEarlier} />;
}
