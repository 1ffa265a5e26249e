import type { SnippetPart } from "@/lib/views";

/** A search snippet: matched words in <mark>, everything as text (never as HTML). */
export function Snippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <span data-testid="search-snippet">
      {parts.map((part, index) =>
        part.hit ? (
          <mark key={index} className="rounded-sm bg-amber-200/80 px-0.5 text-inherit dark:bg-amber-500/40">
            {part.text}
          </mark>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}
