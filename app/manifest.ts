import type { MetadataRoute } from "next";

/** The web app manifest: Strata can be added to a phone's home screen and opens without browser chrome. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Strata",
    short_name: "Strata",
    description: "Long LLM conversations that never hit the context limit and never lose a word.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#0284c7",
    icons: [
      { src: "/icon.svg", sizes: "any", type: "image/svg+xml" },
      { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
