import Link from "next/link";

// Unknown ids and other users' ids both end here: nothing tells them apart.
export default function NotFound() {
  return (
    <main className="flex flex-1 items-center justify-center p-8" data-testid="not-found">
      <div className="max-w-sm text-center">
        <h1 className="text-lg font-semibold tracking-tight">Not found</h1>
        <p className="mt-2 text-[13px] text-neutral-600 dark:text-neutral-400">There is nothing here, or it is not yours.</p>
        <Link href="/" className="mt-4 inline-block text-[13px] font-medium text-sky-700 hover:underline dark:text-sky-400">
          Back to your conversations
        </Link>
      </div>
    </main>
  );
}
