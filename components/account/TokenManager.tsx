"use client";
import { useEffect, useRef, useState } from "react";
import { createTokenAction, revokeTokenAction } from "@/app/actions";
import { fieldRefusal, formatTime } from "@/components/format";
import type { TokenView } from "@/lib/views";
import { Button } from "../ui/Button";
import { CopyButton } from "../ui/CopyButton";
import { submitWith } from "../ui/forms";

type Expiry = 30 | 90 | null;

const EXPIRIES: { label: string; value: Expiry }[] = [
  { label: "Never expires", value: null },
  { label: "Expires in 30 days", value: 30 },
  { label: "Expires in 90 days", value: 90 },
];

/**
 * Revoke asks first: a revoked token stops its scripts at once and cannot be brought
 * back. "Yes" takes the focus when asked; Cancel or Escape gives it back to Revoke.
 */
function RevokeControl({ name, onRevoke }: { name: string; onRevoke: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [working, setWorking] = useState(false);
  const revokeRef = useRef<HTMLButtonElement>(null);
  const yesRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) yesRef.current?.focus();
    else if (wasAsking.current) revokeRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking)
    return (
      <Button ref={revokeRef} size="xs" variant="danger" onClick={() => setAsking(true)} data-testid="token-revoke" aria-label={`Revoke ${name}`}>
        Revoke
      </Button>
    );
  return (
    <span
      role="group"
      aria-label={`Revoke ${name}?`}
      className="flex items-center gap-1.5"
      data-testid="token-revoke-confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") setAsking(false);
      }}
    >
      <span className="text-[12px] font-medium">Revoke?</span>
      <Button
        ref={yesRef}
        size="xs"
        variant="danger"
        disabled={working}
        data-testid="token-revoke-yes"
        onClick={async () => {
          setWorking(true);
          await onRevoke();
          setWorking(false);
          setAsking(false);
        }}
      >
        Yes
      </Button>
      <Button size="xs" data-testid="token-revoke-cancel" onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </span>
  );
}

/** Personal API tokens: create one (shown once), see them all, revoke any. */
export function TokenManager({ initialTokens }: { initialTokens: TokenView[] }) {
  const [tokens, setTokens] = useState(initialTokens);
  const [name, setName] = useState("");
  const [expiresInDays, setExpiresInDays] = useState<Expiry>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  async function create() {
    setWorking(true);
    setError(null);
    const result = await createTokenAction({ name, expiresInDays });
    setWorking(false);
    if (!result.ok) return setError(fieldRefusal(result.error, { name: "", expiresInDays: "Expires" }));
    const { token, ...view } = result.data;
    setTokens((current) => [view, ...current]);
    setCreated(token);
    setName("");
  }

  async function revoke(id: string) {
    setError(null);
    const result = await revokeTokenAction(id);
    if (!result.ok) return setError(result.error.message);
    setTokens((current) => current.filter((token) => token.id !== id));
  }

  return (
    <section className="space-y-3 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800" data-testid="tokens">
      <div>
        <h2 className="text-[13.5px] font-semibold">API tokens</h2>
        <p className="text-[12px] text-neutral-500">
          For scripts: send <code className="font-mono">Authorization: Bearer &lt;token&gt;</code> to the JSON API. A token acts as you;
          revoking it stops it at once. Tokens cannot make or revoke tokens: only this page can.
        </p>
      </div>
      {/* Wraps on a phone: the button goes under the name rather than off the screen. */}
      <form className="flex flex-wrap gap-2" onSubmit={submitWith(create)}>
        <input
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Name, e.g. backup script"
          maxLength={64}
          data-testid="token-name"
          aria-label="Token name"
          className="h-7 min-w-0 flex-1 basis-48 rounded-md border border-neutral-300 bg-white px-2 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950"
        />
        <select
          value={String(expiresInDays)}
          onChange={(event) => setExpiresInDays(event.target.value === "null" ? null : (Number(event.target.value) as Expiry))}
          aria-label="Token expiry"
          data-testid="token-expiry"
          className="h-7 rounded-md border border-neutral-300 bg-white px-1 text-[12.5px] dark:border-neutral-700 dark:bg-neutral-950"
        >
          {EXPIRIES.map((option) => (
            <option key={String(option.value)} value={String(option.value)}>
              {option.label}
            </option>
          ))}
        </select>
        <Button type="submit" variant="primary" disabled={working} data-testid="token-create">
          Create token
        </Button>
      </form>
      {created ? (
        <div className="space-y-1 rounded-md bg-emerald-50 p-2 text-[12px] dark:bg-emerald-950/40" role="status">
          <div className="flex items-center gap-2">
            <p className="flex-1">Copy it now: it is not shown again.</p>
            <CopyButton text={created} label="Copy token" testId="token-copy" withText />
          </div>
          <code data-testid="token-value" className="block break-all font-mono text-[12px]">
            {created}
          </code>
        </div>
      ) : null}
      {error ? (
        <p role="alert" data-testid="token-error" className="text-[12px] text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <ul className="divide-y divide-neutral-100 dark:divide-neutral-800" data-testid="token-list">
        {tokens.length === 0 ? <li className="py-2 text-[12px] text-neutral-500">No tokens.</li> : null}
        {tokens.map((token) => (
          <li key={token.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-[12.5px]" data-testid="token-row">
            {/* On a phone the name takes a line of its own: squeezed beside the dates it shrank to nothing. */}
            <span className="min-w-0 flex-1 truncate font-medium max-sm:basis-full">{token.name}</span>
            <code className="font-mono text-[11.5px] text-neutral-500" data-testid="token-start">
              {token.start ? `${token.start}…` : ""}
            </code>
            <span className="text-[11.5px] text-neutral-500">
              created {formatTime(token.createdAt)} · {token.lastUsedAt ? `used ${formatTime(token.lastUsedAt)}` : "never used"} ·{" "}
              {token.expiresAt ? `expires ${formatTime(token.expiresAt)}` : "no expiry"}
            </span>
            <RevokeControl name={token.name} onRevoke={() => revoke(token.id)} />
          </li>
        ))}
      </ul>
    </section>
  );
}
