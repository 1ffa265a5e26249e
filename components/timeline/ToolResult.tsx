"use client";
import { formatCount } from "@/components/format";
import { ClippedText } from "./ClippedText";
import type { ResultPart } from "./mcp-content";

const CAPTION = "text-[11.5px] text-neutral-600 dark:text-neutral-400";

function sizeLabel(bytes: number): string {
  return bytes < 1024 ? `${formatCount(bytes)} bytes` : `${formatCount(Math.round(bytes / 1024))} KB`;
}

function Part({ part, openKey }: { part: ResultPart; openKey: string }) {
  switch (part.kind) {
    case "text":
      return <ClippedText text={part.text} openKey={openKey} testId="tool-result-text" />;
    case "image":
      return (
        // A data URL of a checked raster type: next/image would only add a loader round trip.
        // eslint-disable-next-line @next/next/no-img-element
        <img data-testid="tool-result-image" src={part.src} alt={`Image returned by the tool (${part.mimeType})`} className="max-h-80 max-w-full rounded border border-neutral-200 dark:border-neutral-800" />
      );
    case "audio":
      return <audio data-testid="tool-result-audio" controls src={part.src} aria-label={`Audio returned by the tool (${part.mimeType})`} className="w-full max-w-sm" />;
    case "withheld":
      return (
        <p data-testid="tool-result-withheld" className={CAPTION}>
          {part.what === "image" ? "An image" : "Audio"} not shown: {part.reason}.
        </p>
      );
    case "link":
      return (
        <p data-testid="tool-result-resource-link" className="text-[12.5px]">
          <span className={CAPTION}>Resource: </span>
          {part.href ? (
            <a href={part.href} target="_blank" rel="noopener noreferrer nofollow" className="text-sky-700 underline dark:text-sky-400">
              {part.label}
            </a>
          ) : (
            <span className="font-medium">{part.label}</span>
          )}{" "}
          <span className="font-mono break-all text-neutral-600 dark:text-neutral-400">{part.uri}</span>
          {part.mimeType || part.size !== null ? (
            <span className={CAPTION}> ({[part.mimeType, part.size !== null ? sizeLabel(part.size) : null].filter(Boolean).join(", ")})</span>
          ) : null}
          {part.description ? <span className={`block ${CAPTION}`}>{part.description}</span> : null}
        </p>
      );
    case "resource":
      return (
        <figure data-testid="tool-result-resource" className="space-y-1">
          <figcaption className={CAPTION}>
            Embedded resource <span className="font-mono break-all">{part.uri}</span>
            {part.mimeType ? ` (${part.mimeType})` : ""}
          </figcaption>
          {"text" in part ? (
            <ClippedText text={part.text} openKey={openKey} />
          ) : (
            // eslint-disable-next-line @next/next/no-img-element
            <img src={part.image} alt={`Embedded image ${part.uri}`} className="max-h-80 max-w-full rounded border border-neutral-200 dark:border-neutral-800" />
          )}
        </figure>
      );
    case "blob":
      return (
        <p data-testid="tool-result-resource" className={CAPTION}>
          Embedded resource <span className="font-mono break-all">{part.uri}</span>: {part.mimeType ?? "binary"}, {sizeLabel(part.bytes)} (not shown)
        </p>
      );
  }
}

/** A tool's result as its parts: text, media, links and resources. */
export function ToolResult({ parts, openKey }: { parts: ResultPart[]; openKey: string }) {
  return (
    <div data-testid="tool-result" className="min-w-0 space-y-1.5">
      {parts.map((part, index) => (
        <Part key={index} part={part} openKey={`${openKey}:${index}`} />
      ))}
    </div>
  );
}
