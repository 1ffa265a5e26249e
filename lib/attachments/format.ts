// How a file's size reads, for chips and errors alike (no server imports: the browser uses it).
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Why a file is refused for its size: the upload route says it, and the browser before sending a byte. */
export function tooLargeMessage(name: string, max: number): string {
  return `“${name}” is larger than the attachment limit of ${formatBytes(max)} (STRATA_ATTACHMENT_MAX_BYTES).`;
}
