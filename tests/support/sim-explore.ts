import { simulate, type Scenario } from "./simulation";
const windows = (process.env.WINDOWS ?? "4096,8192,16384,32768").split(",").map(Number);
const modes = (process.env.MODES ?? "extractive,terse,verbose,cut").split(",");
const sizes = (process.env.SIZES ?? "short,long,mixed").split(",");
const turns = Number(process.env.TURNS ?? 150);
for (const window of windows) for (const size of sizes) for (const mode of modes) {
  const scenario: Scenario = { window, turns, size: size as never, summarizer: { mode: mode as never, failRate: Number(process.env.FAIL ?? 0) }, factEvery: 5, settings: JSON.parse(process.env.SETTINGS ?? "{}"), usage: (process.env.USAGE ?? "always") as never };
  const t = Date.now();
  const r = await simulate(scenario);
  const kinds = new Map<string, number>();
  for (const v of r.violations) kinds.set(v.kind, (kinds.get(v.kind) ?? 0) + 1);
  console.log(`${window} ${size.padEnd(5)} ${mode.padEnd(10)} calls/100=${r.summaryCallsPer100Turns.toFixed(0).padStart(4)} blocks=${r.maxSummaryBlocks} trunc=${r.truncations} maxShare=${r.maxRequestShare.toFixed(2)} facts=${r.retention.visible}/${r.retention.planted} depth=${JSON.stringify(Object.fromEntries(Object.entries(r.retention.byDepth).map(([k,v])=>[k,`${v.visible}/${v.planted}`])))} viol=${JSON.stringify(Object.fromEntries(kinds))} ${Date.now()-t}ms`);
  if (process.env.STATS) console.log("   ", JSON.stringify(r.made), JSON.stringify(r.attempts));
  if (process.env.SHOW) for (const v of r.violations.slice(0, 5)) console.log("   ", v);
}
