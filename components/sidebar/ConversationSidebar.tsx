"use client";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { COMPOSER_ID } from "@/components/chat/Composer";
import { useConversationList } from "@/components/stores/conversation-list-store";
import type { ConversationPage } from "@/lib/views";
import { Button } from "../ui/Button";
import { GearIcon, LayersIcon, PlusIcon } from "../ui/icons";
import { ConversationGroups } from "./ConversationGroups";
import { ExportAllLink } from "./ExportAllLink";
import { ImportButton } from "./ImportButton";
import { SidebarSearch } from "./SidebarSearch";

function FooterLink({ href, testId, current, children }: { href: string; testId: string; current: boolean; children: React.ReactNode }) {
  return (
    <Link
      href={href}
      data-testid={testId}
      className={`flex items-center gap-2 rounded-md px-2 py-1.5 text-[12.5px] text-neutral-600 hover:bg-neutral-200/60 dark:text-neutral-400 dark:hover:bg-neutral-800 ${
        current ? "bg-neutral-200/70 text-neutral-900 dark:bg-neutral-800 dark:text-neutral-100" : ""
      }`}
    >
      {children}
    </Link>
  );
}

export function ConversationSidebar({
  initialPage,
  loadError,
  user,
}: {
  initialPage: ConversationPage;
  loadError: string | null;
  user: { email: string; admin: boolean };
}) {
  const router = useRouter();
  const pathname = usePathname();
  const seed = useConversationList((state) => state.seed);
  const error = loadError;
  const [query, setQuery] = useState("");
  const searching = query.trim() !== "";

  useEffect(() => seed(initialPage), [initialPage, seed]);

  const activeId = pathname.startsWith("/c/") ? decodeURIComponent(pathname.slice(3).split("/")[0] ?? "") : null;

  // "New" opens the home page's composer: a conversation is stored with its first message, never empty.
  function startNew() {
    if (pathname === "/") document.getElementById(COMPOSER_ID)?.focus();
    else router.push("/");
  }

  return (
    <nav
      aria-label="Conversations"
      className="flex h-full w-full flex-col border-r border-neutral-200 bg-neutral-50 dark:border-neutral-800 dark:bg-neutral-900/60"
    >
      <div className="flex h-12 items-center justify-between border-b border-neutral-200 px-3 dark:border-neutral-800">
        <Link href="/" className="flex items-center gap-2 text-sm font-semibold tracking-tight">
          <LayersIcon className="size-4 text-sky-600 dark:text-sky-400" />
          Strata
        </Link>
        <Button
          variant="primary"
          size="xs"
          data-testid="new-conversation"
          onClick={startNew}
          aria-label="New conversation"
        >
          <PlusIcon className="size-3" /> New
        </Button>
      </div>
      {error ? (
        <p role="alert" className="m-2 rounded-md bg-red-50 p-2 text-xs text-red-700 dark:bg-red-950/50 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <SidebarSearch query={query} onQuery={setQuery} />
      <ConversationGroups
        hidden={searching}
        activeId={activeId}
        loadError={error}
        onDeletedActive={() => router.push("/")}
      />
      <div className="space-y-px border-t border-neutral-200 p-2 dark:border-neutral-800">
        <ImportButton />
        <ExportAllLink />
        <FooterLink href="/settings" testId="sidebar-settings" current={pathname === "/settings"}>
          <GearIcon /> Compression settings
        </FooterLink>
        {user.admin ? (
          <FooterLink href="/admin" testId="sidebar-admin" current={pathname === "/admin"}>
            <GearIcon /> Admin
          </FooterLink>
        ) : null}
        <FooterLink href="/account" testId="sidebar-account" current={pathname === "/account"}>
          <span className="truncate" data-testid="signed-in-as">
            {user.email}
          </span>
        </FooterLink>
      </div>
    </nav>
  );
}
