// Concurrency — many conversations streaming at once through one Strata instance,
// beside the same load sent to the model server alone, in one run.
//
// A paced OpenAI-compatible server (bench/lib/paced-model.ts, its own process) streams
// every reply as 150 words in 50 chunks over 2 s. For each level (100, 300, 600
// conversations) two phases run one after the other for the same time:
//   - model alone: each virtual user keeps a conversation in memory and sends its turns
//     back to back straight to the model server (stream: true, read to the end);
//   - through Strata: each user has a Strata conversation and sends its turns back to
//     back to POST /api/conversations/:id/messages {stream: true} (NDJSON, read to the end),
//     or with `--via action` as the browser does: the sendMessageAction server action
//     posted to the conversation's page with the session cookie signing in set,
//     its React Flight stream read to the end.
// Reported per phase: turns/s, p50/p95 turn time, errors; for Strata also the CPU its
// process used per streamed turn and its largest resident memory.
//
//   npx tsx bench/concurrency.ts [--levels 100,300,600] [--seconds 30] [--warmup 5] [--processes 1] [--via api|action]
import "./lib/env";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { ROOT, fmt, fmtInt, median, p95, printTable, resetDatabase, runMain, verdictTable, writeResults, type Table, type Verdict } from "./lib/common";
import { ensureBuild, startNext } from "./lib/next-server";
import { benchAuthHeaders, benchSessionHeaders, benchUser } from "./lib/user";

const option = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};
const LEVELS = option("levels", "100,300,600").split(",").map(Number);
const SECONDS = Number(option("seconds", "30"));
// Server processes of the instance (STRATA_PROCESSES), as `npm start` would run them.
const PROCESSES = Number(option("processes", "1"));
const WARMUP = Number(option("warmup", "5"));
// How turns reach Strata: its NDJSON API (what the issue's figures measured) or the server action a browser calls.
const VIA = option("via", "api");
if (VIA !== "api" && VIA !== "action") throw new Error(`--via must be api or action, not ${VIA}`);
const MODEL = "gpt-4o-mini";
const REPLY_MS = 2000;
const TICKS_PER_SECOND = 100;
// e.g. BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to see where the instance spends its CPU.
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);

type Turn = { started: number; ms: number; error?: string };
type Phase = { turns: Turn[]; cpuMs?: number; rssMb?: number };

async function startPacedModel(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/lib/paced-model.ts"), "--ms", String(REPLY_MS)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`paced model exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/v1`, child };
}

/** A process and all its descendants, each with its CPU ticks so far, from /proc. */
function processTree(root: number): { pid: number; ticks: number }[] {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces; the fields after its closing parenthesis do not.
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  const tree: { pid: number; ticks: number }[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.pop()!;
    tree.push({ pid, ticks: stats.get(pid)?.ticks ?? 0 });
    for (const [child, stat] of stats) if (stat.ppid === pid) queue.push(child);
  }
  return tree;
}

/** CPU time (ms) of a process and all its descendants. */
function treeCpuMs(root: number): number {
  return (processTree(root).reduce((sum, { ticks }) => sum + ticks, 0) * 1000) / TICKS_PER_SECOND;
}

/** Resident memory (MB) of a process and all its descendants (every server process of the instance). */
function rssMb(root: number): number {
  let kb = 0;
  for (const { pid } of processTree(root)) {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

/** Reads a response body line by line until it ends, handing each non-empty line to `line`. */
async function readLines(response: Response, line: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const text = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (text) line(text);
    }
  }
  if (buffered.trim()) line(buffered.trim());
}

/** Runs `users` loops that each call `turn` back to back until the phase ends. */
async function runPhase(users: number, turn: (user: number, index: number) => Promise<string | undefined>, sample?: () => void): Promise<Turn[]> {
  const turns: Turn[] = [];
  const started = performance.now();
  const end = started + SECONDS * 1000;
  const sampler = sample ? setInterval(sample, 1000) : undefined;
  await Promise.all(
    Array.from({ length: users }, async (_, user) => {
      for (let index = 0; performance.now() < end; index++) {
        const t = performance.now();
        let error: string | undefined;
        try {
          error = await turn(user, index);
        } catch (caught) {
          error = String(caught);
        }
        turns.push({ started: t - started, ms: performance.now() - t, ...(error ? { error } : {}) });
      }
    }),
  );
  if (sampler) clearInterval(sampler);
  return turns;
}

/** The id under which the build serves a server action of app/actions.ts. */
function actionId(buildDir: string, name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(buildDir, ".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === name);
  if (!found) throw new Error(`no server action ${name} in the build`);
  return found[0];
}

const userText = (user: number, index: number) => `User ${user}, turn ${index}: tell me more about streaming under load.`;

async function main() {
  const build = ensureBuild();
  await resetDatabase(process.env.DATABASE_URL!);
  const account = await benchUser();
  const auth = await benchAuthHeaders(account);
  const model = await startPacedModel();
  const next = await startNext({
    DATABASE_URL: process.env.DATABASE_URL!,
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: "test",
    // The product's default logging: its cost is part of what an instance spends per turn.
    LOG_LEVEL: "info",
    STRATA_DEFAULT_MODEL: MODEL,
    STRATA_PROCESSES: String(PROCESSES),
  }, undefined, nodeFlags).catch((error: unknown) => {
    model.child.kill();
    throw error;
  });
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const loadBefore = load();
  const results: { users: number; alone: Phase; strata: Phase }[] = [];
  try {
    await fetch(`${next.url}/api/conversations`, { headers: auth });
    // A browser sends its turns with the session cookie that signing in set, not an API token.
    const browser = VIA === "action" ? await benchSessionHeaders(next.url, account) : {};
    for (const users of LEVELS) {
      console.log(`\n${users} conversations: model alone …`);
      const histories = Array.from({ length: users }, () => [] as { role: string; content: string }[]);
      const aloneTurns = await runPhase(users, async (user, index) => {
        const history = histories[user]!;
        history.push({ role: "user", content: userText(user, index) });
        const response = await fetch(`${model.url}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer test" },
          body: JSON.stringify({ model: MODEL, messages: history, stream: true, stream_options: { include_usage: true } }),
        });
        if (!response.ok) return `HTTP ${response.status}`;
        let reply = "";
        await readLines(response, (line) => {
          if (!line.startsWith("data: ") || line === "data: [DONE]") return;
          const chunk = JSON.parse(line.slice(6)) as { choices: { delta?: { content?: string } }[] };
          reply += chunk.choices[0]?.delta?.content ?? "";
        });
        history.push({ role: "assistant", content: reply });
        return reply ? undefined : "empty reply";
      });

      console.log(`${users} conversations: creating them in Strata …`);
      const ids: string[] = [];
      for (let from = 0; from < users; from += 25) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(25, users - from) }, async (_, offset) => {
            const response = await fetch(`${next.url}/api/conversations`, {
              method: "POST",
              headers: { "content-type": "application/json", ...auth },
              body: JSON.stringify({ title: `concurrency ${users}/${from + offset}`, model: MODEL }),
            });
            if (response.status !== 201) throw new Error(`create: HTTP ${response.status} ${await response.text()}`);
            return ((await response.json()) as { conversation: { id: string } }).conversation.id;
          }),
        );
        ids.push(...batch);
      }
      console.log(`${users} conversations: through Strata …`);
      const pid = next.child.pid!;
      let rss = rssMb(pid);
      const cpuBefore = treeCpuMs(pid);
      const sendAction = VIA === "action" ? actionId(build.dir, "sendMessageAction") : "";
      const strataTurns = await runPhase(
        users,
        async (user, index) => {
          if (VIA === "action") {
            // As the page's client calls it: the action's arguments as JSON, the reply a Flight stream.
            const response = await fetch(`${next.url}/c/${ids[user]}`, {
              method: "POST",
              headers: { "next-action": sendAction, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: next.url, ...browser },
              body: JSON.stringify([{ conversationId: ids[user], content: userText(user, index) }]),
            });
            const text = await response.text();
            if (!response.ok) return `HTTP ${response.status} ${text.slice(0, 200)}`;
            if (text.includes('"type":"error"')) return `error event: ${text.slice(text.indexOf('"type":"error"'), text.indexOf('"type":"error"') + 200)}`;
            return text.includes('"role":"assistant"') ? undefined : `no assistant message: ${text.slice(0, 200)}`;
          }
          const response = await fetch(`${next.url}/api/conversations/${ids[user]}/messages`, {
            method: "POST",
            headers: { "content-type": "application/json", ...auth },
            body: JSON.stringify({ kind: "send", content: userText(user, index), stream: true }),
          });
          if (!response.ok) return `HTTP ${response.status} ${(await response.text()).slice(0, 200)}`;
          let error: string | undefined;
          let replied = false;
          await readLines(response, (line) => {
            const event = JSON.parse(line) as { type: string; message?: { role?: string } | string };
            if (event.type === "error") error = `error event: ${typeof event.message === "string" ? event.message : ""}`;
            if (event.type === "message" && typeof event.message === "object" && event.message.role === "assistant") replied = true;
          });
          return error ?? (replied ? undefined : "no assistant message");
        },
        () => (rss = Math.max(rss, rssMb(pid))),
      );
      const cpuMs = treeCpuMs(pid) - cpuBefore;
      results.push({ users, alone: { turns: aloneTurns }, strata: { turns: strataTurns, cpuMs, rssMb: rss } });
      const summary = (phase: Phase) => {
        const measured = phase.turns.filter((turn) => turn.started >= WARMUP * 1000);
        return `${fmt(measured.length / (SECONDS - WARMUP), 1)} turns/s, p50 ${fmt(median(measured.map((t) => t.ms)) / 1000)} s`;
      };
      console.log(`  alone: ${summary(results.at(-1)!.alone)}; strata: ${summary(results.at(-1)!.strata)}`);
    }
  } finally {
    await next.stop();
    model.child.kill();
  }

  const measured = (phase: Phase) => phase.turns.filter((turn) => turn.started >= WARMUP * 1000);
  const ok = (phase: Phase) => measured(phase).filter((turn) => !turn.error);
  const rate = (phase: Phase) => ok(phase).length / (SECONDS - WARMUP);
  const p50 = (phase: Phase) => median(ok(phase).map((turn) => turn.ms)) / 1000;
  const p95s = (phase: Phase) => p95(ok(phase).map((turn) => turn.ms)) / 1000;
  const errors = (phase: Phase) => phase.turns.filter((turn) => turn.error).length;
  const table: Table = {
    headers: ["conversations", "model alone: turns/s, p50 / p95", `through Strata (${VIA === "action" ? "server action" : "NDJSON API"}): turns/s, p50 / p95`, "p50 ratio", "errors (alone / Strata)", "Strata CPU per turn", "Strata RSS max"],
    rows: results.map(({ users, alone, strata }) => [
      users,
      `${fmt(rate(alone), 1)}, ${fmt(p50(alone))} / ${fmt(p95s(alone))} s`,
      `${fmt(rate(strata), 1)}, ${fmt(p50(strata))} / ${fmt(p95s(strata))} s`,
      `${fmt(p50(strata) / p50(alone))}×`,
      `${errors(alone)} / ${errors(strata)}`,
      `${fmt(strata.cpuMs! / Math.max(1, strata.turns.length), 1)} ms`,
      `${fmtInt(Math.round(strata.rssMb!))} MB`,
    ]),
  };
  printTable("Concurrent streaming conversations", table);
  const firstError = results.flatMap(({ strata }) => strata.turns).find((turn) => turn.error)?.error;
  if (firstError) console.log(`first Strata error: ${firstError}`);
  const target = (users: number, bound: number): Verdict | null => {
    const row = results.find((result) => result.users === users);
    if (!row) return null;
    const ratio = p50(row.strata) / p50(row.alone);
    return { target: `${users} conversations: p50 ≤ ${bound}× the model alone`, measured: `${fmt(ratio)}×`, met: ratio <= bound };
  };
  const verdicts: Verdict[] = [
    target(300, 1.15),
    target(600, 1.5),
    {
      target: "no errors",
      measured: String(results.reduce((sum, { alone, strata }) => sum + errors(alone) + errors(strata), 0)),
      met: results.every(({ alone, strata }) => errors(alone) + errors(strata) === 0),
      ...(firstError ? { note: firstError.slice(0, 160) } : {}),
    },
  ].filter((verdict): verdict is Verdict => verdict !== null);
  printTable("Targets", verdictTable(verdicts));
  writeResults(VIA === "action" ? "concurrency-action" : "concurrency", `Concurrent streaming conversations${VIA === "action" ? " through the server action" : ""}: one instance beside the model server alone`, {
    command: `npx tsx bench/concurrency.ts${VIA === "action" ? " --via action" : ""}${PROCESSES === 1 ? "" : ` --processes ${PROCESSES}`}`,
    load: `load average before ${loadBefore}, after ${load()}`,
    intro:
      `\`next start\` (production build${build.built ? ", rebuilt for this run" : ""}), ${PROCESSES === 1 ? "one process" : `${PROCESSES} processes on one port (STRATA_PROCESSES=${PROCESSES})`}, default logging, on 127.0.0.1 with its own PostgreSQL database; ` +
      `a paced OpenAI-compatible server in its own process streams every reply as 150 words in 50 chunks over ${REPLY_MS / 1000} s. ` +
      `Per level, the model alone and then Strata each get ${SECONDS} s of turns sent back to back by every conversation` +
      (VIA === "action" ? ", to Strata as the browser sends them: the sendMessageAction server action posted to the conversation's page with a signed-in session's cookie, its Flight stream read to the end; " : "; ") +
      `the first ${WARMUP} s of each phase are not counted. Turn time = client-side time from the request to the end of the stream. ` +
      "CPU per turn = the Strata process tree's user + system CPU during its phase ÷ turns in that phase (warm-up included). " +
      "The load client runs in the benchmark's process on the same two cores.",
    tables: [{ table }, { caption: "Targets", table: verdictTable(verdicts) }],
  });
  return verdicts.every((verdict) => verdict.met);
}

runMain(main);
