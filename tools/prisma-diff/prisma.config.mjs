// Prisma 6 config used only by diff.mjs: runs Prisma 6's bundled WASM schema engine
// ("js" engine) through the PGlite driver adapter on in-memory databases, so no
// native engine binary and no database server are needed.
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

// pglite-prisma-adapter 0.6.1 runs every executeRaw as a prepared statement, but the
// schema engine replays each migration.sql on the shadow database as ONE executeRaw
// with no parameters ("cannot insert multiple commands into a prepared statement").
// Parameterless statements go through PGlite's simple-query `exec` instead, which
// accepts multi-statement scripts. executeScript is also made to await its result
// (0.6.1 fires exec() without awaiting it, losing errors).
async function connect(db) {
  const adapter = await new PrismaPGlite(db).connect();
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    if (query.args && query.args.length > 0) return executeRaw(query);
    await db.exec(query.sql);
    return 0;
  };
  adapter.executeScript = async (script) => {
    await db.exec(script);
  };
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await dispose();
    if (!db.closed) await db.close();
  };
  return adapter;
}

export default {
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => {
    const template = new PrismaPGlite(new PGlite());
    return {
      provider: template.provider,
      adapterName: template.adapterName,
      connect: () => connect(new PGlite()),
      // Used by --from-migrations: a fresh in-memory database for each replay.
      connectToShadowDb: () => connect(new PGlite()),
    };
  },
};
