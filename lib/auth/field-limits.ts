// Bounds of the account fields, in a module of their own: the chat operations check them
// without loading the auth library (lib/auth/input-policy.ts applies them to its endpoints).
export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;
/**
 * Passwords that are checked, not set: new ones are held to 128 characters, but accounts
 * made when 256 were allowed keep signing in (the library's maxPasswordLength).
 */
export const MAX_CHECKED_PASSWORD_LENGTH = 256;
