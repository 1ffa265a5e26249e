// The browser's calls to the auth library's own endpoints (/api/auth/*), where its
// origin check and sign-in rate limit apply. Server actions never sign anyone in.
export type AuthOutcome = { ok: true } | { ok: false; message: string };

const MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Wrong email or password.",
  USER_ALREADY_EXISTS: "An account with this email exists already. Sign in instead.",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "An account with this email exists already. Sign in instead.",
  PASSWORD_TOO_SHORT: "The password is too short: use at least 12 characters.",
  PASSWORD_TOO_LONG: "The password is too long: use at most 128 characters.",
  INVALID_PASSWORD: "The current password is wrong.",
  INVALID_EMAIL: "That is not an email address.",
  INVALID_TOKEN: "This link does not work: it was used already, has expired, or a newer one replaced it. Ask the admin for a new one.",
};

export async function authRequest(
  path: "/sign-in/email" | "/sign-up/email" | "/sign-out" | "/change-password" | "/reset-password",
  body: Record<string, unknown> = {},
): Promise<AuthOutcome> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, message: "The server cannot be reached. Try again." };
  }
  if (response.ok) return { ok: true };
  const error = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  // The per-account limit says how long itself; the per-address one does not.
  if (response.status === 429 && error.code !== "TOO_MANY_FAILED_SIGN_INS") {
    const wait = response.headers.get("retry-after") ?? response.headers.get("x-retry-after");
    return { ok: false, message: `Too many attempts. Try again in ${wait ?? "a few"} seconds.` };
  }
  return { ok: false, message: (error.code && MESSAGES[error.code]) || error.message || `The request failed (${response.status}).` };
}

/** Starts an OAuth sign-in: the library answers with the provider's page to go to. */
export async function socialSignIn(provider: string): Promise<AuthOutcome> {
  const response = await fetch("/api/auth/sign-in/social", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ provider, callbackURL: "/" }),
    credentials: "same-origin",
  }).catch(() => null);
  const body = (await response?.json().catch(() => null)) as { url?: string; message?: string } | null;
  if (!response?.ok || !body?.url) return { ok: false, message: body?.message ?? "That sign-in is not available right now." };
  window.location.assign(body.url);
  return { ok: true };
}

/**
 * Why the server would refuse this new password, or null: the server's own rule
 * (lib/auth/password-policy.ts), loaded when first needed so its dictionaries stay out
 * of the page's first load.
 */
export async function passwordRefusal(password: string, userInputs: string[]): Promise<string | null> {
  const { checkNewPassword } = await import("@/lib/auth/password-policy");
  const verdict = checkNewPassword(password, userInputs);
  return verdict.ok ? null : verdict.message;
}
