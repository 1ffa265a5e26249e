// Unknown, revoked and expired links all end here: nothing tells them apart.
export default function SharedNotFound() {
  return (
    <main className="flex flex-1 items-center justify-center p-8" data-testid="not-found">
      <div className="max-w-sm text-center">
        <h1 className="text-lg font-semibold tracking-tight">Not found</h1>
        <p className="mt-2 text-[13px] text-neutral-600 dark:text-neutral-400">
          This link does not open anything. It may have been revoked or have expired, or the address is incomplete.
        </p>
      </div>
    </main>
  );
}
