import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "tiktoken", "pino"],
  experimental: { serverActions: { bodySizeLimit: "4mb" } },
};

export default nextConfig;
