import pino from "pino";
import { config } from "../config";

// One structured JSON logger for the server. LOG_LEVEL=silent quiets tests.
// STRATA_LOG_TO_STDERR=1 (the strata CLI) keeps stdout for the command's result.
// Built once: a pino logger's destination is fixed when it is made, and every module holds
// this one instance, so LOG_LEVEL and STRATA_LOG_TO_STDERR apply from the start of the process.
const settings = config();
const options: pino.LoggerOptions = {
  level: settings.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { app: "strata" },
  redact: ["apiKey", "*.apiKey", "headers.authorization"],
};
export const logger = settings.STRATA_LOG_TO_STDERR === "1" ? pino(options, pino.destination(2)) : pino(options);
