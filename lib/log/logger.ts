import pino from "pino";

// One structured JSON logger for the server. LOG_LEVEL=silent quiets tests.
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { app: "strata" },
  redact: ["apiKey", "*.apiKey", "headers.authorization"],
});
