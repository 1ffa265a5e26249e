import type { Metadata, Viewport } from "next";
import "./globals.css";
import { databaseProblem } from "@/lib/db/health";
import { AppErrorState } from "@/components/ui/AppErrorState";
import { QueryProvider } from "@/components/queries/QueryProvider";

// Every page renders per request: the session decides what it shows, and the CSP
// nonce (proxy.ts) must reach every script.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Strata",
  description: "Long LLM conversations that never hit the context limit and never lose a word.",
  icons: { icon: [{ url: "/icon.svg", type: "image/svg+xml" }, { url: "/icon-192.png", sizes: "192x192" }], apple: "/apple-icon.png" },
  appleWebApp: { capable: true, title: "Strata", statusBarStyle: "default" },
};

export const viewport: Viewport = {
  colorScheme: "light dark",
  width: "device-width",
  initialScale: 1,
  themeColor: "#0284c7",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Checked before any page reads the database: an outage is one clear state, never a
  // page that looks empty (as if the conversations were gone).
  const problem = await databaseProblem();
  return (
    <html lang="en">
      <body className="flex h-dvh overflow-hidden">
        {problem ? <AppErrorState title="The database is unavailable" cause={problem} /> : <QueryProvider>{children}</QueryProvider>}
      </body>
    </html>
  );
}
