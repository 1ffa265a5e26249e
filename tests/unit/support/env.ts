// setupFiles of the unit tests: quiet logs, and no real model or database to fall back to
// (a unit test that reached for one would fail here instead of depending on the machine).
process.env.LOG_LEVEL ??= "silent";
delete process.env.OPENAI_API_KEY;
delete process.env.DATABASE_URL;
