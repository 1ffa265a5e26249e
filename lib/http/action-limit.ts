// Read by next.config.ts as well, so it imports nothing.
/** Largest server action body: Next.js's serverActions.bodySizeLimit, checked first by proxy.ts. */
export const ACTION_BODY_LIMIT_BYTES = 4 * 1024 * 1024;
