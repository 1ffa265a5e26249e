// Where the sign-in page sends the user afterwards (?next=): only a path of this very
// site. Anything that a browser could read as another origin is dropped: "//host",
// "/\host" (browsers treat "\" as "/"), "https:…", control characters and whitespace
// (stripped by URL parsers, so "/\t/host" is "//host").
const MAX_NEXT_LENGTH = 2048;
const PLACEHOLDER_ORIGIN = "http://strata.invalid";
// Pages that would only send the user round again.
const LOOPS = ["/sign-in", "/sign-up"];

/** A same-origin relative path (with its query and fragment) to go to, or null. */
export function safeNextPath(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_NEXT_LENGTH) return null;
  if (!raw.startsWith("/") || raw.startsWith("//")) return null;
  // Backslashes, whitespace, control characters and percent-encoded slashes or backslashes
  // at the start: none belongs in a path Strata links to.
  if (/[\\\s\u0000-\u001f\u007f]/.test(raw) || /^\/(%2f|%5c)/i.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN || url.pathname.startsWith("//")) return null;
  if (LOOPS.some((loop) => url.pathname === loop || url.pathname.startsWith(`${loop}/`))) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page's address that returns to `path` afterwards. */
export function signInPathFor(path: string | null | undefined): string {
  const next = safeNextPath(path);
  return next && next !== "/" ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in";
}

/** Set by the proxy on every page request: the path and query the browser asked for. */
export const PAGE_PATH_HEADER = "x-strata-page-path";
