// The names a model sees for tool servers' tools: "<server>__<tool>", within what OpenAI
// accepts (^[a-zA-Z0-9_-]{1,64}$) and unique in one request, however the servers named them.
const MAX_NAME = 64;

function clean(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** Assigns each (server, tool) a model-facing name not in `taken` (which it extends). */
export function modelToolName(server: string, tool: string, taken: Set<string>): string {
  const base = `${clean(server)}__${clean(tool) || "tool"}`.slice(0, MAX_NAME);
  let name = base;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
  }
  taken.add(name);
  return name;
}
