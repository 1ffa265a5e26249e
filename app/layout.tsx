import type { Metadata, Viewport } from "next";
import "./globals.css";

// Every page renders per request: the session decides what it shows, and the CSP
// nonce (proxy.ts) must reach every script.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Strata",
  description: "Long LLM conversations that never hit the context limit and never lose a word.",
  icons: { icon: "data:," },
};

export const viewport: Viewport = {
  colorScheme: "light dark",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="flex h-dvh overflow-hidden">{children}</body>
    </html>
  );
}
