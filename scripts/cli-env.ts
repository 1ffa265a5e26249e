// Imported first by scripts/strata.ts, before anything from lib/ creates the logger:
// the command's result is its stdout, so logs go to stderr.
process.env.STRATA_LOG_TO_STDERR = "1";
process.env.LOG_LEVEL ??= "warn";
