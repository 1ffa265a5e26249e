/** What a disabled account is told, whether it signs in, uses a session or sends a token. */
export const ACCOUNT_DISABLED_MESSAGE = "This account is disabled. Ask the admin of this Strata to enable it.";
