import { LayersIcon } from "@/components/ui/icons";

/** Signed-out pages: one small card in the middle. */
export default function SignedOutLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex flex-1 items-center justify-center overflow-y-auto p-6">
      <div className="w-full max-w-sm rounded-xl border border-neutral-200 p-6 shadow-sm dark:border-neutral-800">
        <p className="mb-4 flex items-center gap-2 text-sm font-semibold tracking-tight">
          <LayersIcon className="size-4 text-sky-600 dark:text-sky-400" /> Strata
        </p>
        {children}
      </div>
    </main>
  );
}
