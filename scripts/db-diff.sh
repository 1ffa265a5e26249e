#!/usr/bin/env bash
# Developer-only: generate a Prisma migration offline after editing prisma/schema.prisma.
#   scripts/db-diff.sh <name>          -> prisma/migrations/<UTC YYYYMMDDHHMMSS>_<name>/migration.sql
#   scripts/db-diff.sh <name> --empty  -> same, even with no schema change (for hand-written SQL)
#   scripts/db-diff.sh --check         -> exit 2 (and print the SQL) if the schema has unmigrated changes
# Uses Prisma 6's WASM schema engine on in-memory PGlite (tools/prisma-diff); needs no
# database server and no native engine. Takes ~15 s. Review the SQL before committing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tool="$root/tools/prisma-diff"
if [ ! -d "$tool/node_modules/prisma" ] || [ ! -d "$tool/node_modules/pglite-prisma-adapter" ]; then
  echo "db-diff: installing tool dependencies (npm ci --prefix tools/prisma-diff) ..." >&2
  npm ci --prefix "$tool" --no-audit --no-fund >&2
fi
exec node "$tool/diff.mjs" "$@"
