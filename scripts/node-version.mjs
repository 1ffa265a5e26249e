// Which Node.js versions package.json's "engines" allows, as plain functions
// (scripts/require-node.mjs runs the check; tests call these directly).

/** The lowest version in an engines range of the form ">=22.12" (or ">=22.12.0"). */
export function minimumOf(range) {
  const match = /^\s*>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
  if (!match) throw new Error(`package.json's engines.node must read ">=MAJOR.MINOR" (got "${range}")`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/** Whether `version` ("v20.20.2" or "20.20.2") is older than `minimum`. */
export function olderThan(version, minimum) {
  const parts = version.replace(/^v/, "").split(".").map(Number);
  for (let index = 0; index < 3; index++) {
    const have = parts[index] ?? 0;
    if (have !== minimum[index]) return have < minimum[index];
  }
  return false;
}

/** The message for an older Node, or null when `version` will do. */
export function nodeVersionProblem(version, range) {
  const minimum = minimumOf(range);
  if (!olderThan(version, minimum)) return null;
  return (
    `Strata needs Node.js ${minimum.slice(0, 2).join(".")} or newer; this is Node.js ${version.replace(/^v/, "")}.\n` +
    "Run `. scripts/ensure-node.sh` in this shell (it installs Node 24 LTS from the npm registry\n" +
    "into ~/.cache/strata-node when needed), then run the command again."
  );
}
