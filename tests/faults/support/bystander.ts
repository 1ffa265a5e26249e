// Another user of the server while a hostile request runs: their GET /api/health and a
// normal turn, one after the other, until the hostile work settles. The fault tests of
// issue 25 assert that each is answered within a second (loose on purpose: the point is
// that they are served at all while one user's request runs).
import * as healthRoute from "../../../app/api/health/route";
import * as conversationsRoute from "../../../app/api/conversations/route";
import * as messagesRoute from "../../../app/api/conversations/[id]/messages/route";
import { bearer, signUp, uniqueEmail } from "../../support/accounts";

export type Bystander = { auth: { authorization: string }; conversationId: string };
export type Probed = { health: number[]; turns: number[]; failures: string[] };

export async function bystander(): Promise<Bystander> {
  const auth = await bearer(await signUp(uniqueEmail("bystander")));
  const created = await conversationsRoute.POST(
    new Request("http://127.0.0.1/api/conversations", {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ title: "bystander", model: "gpt-4o-mini" }),
    }),
  );
  return { auth, conversationId: ((await created.json()) as { conversation: { id: string } }).conversation.id };
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** Health checks (every round) and turns (every `turnEvery`-th round) of `who` until `until` settles. */
export async function probeWhile(who: Bystander, until: Promise<unknown>, turnEvery = 4): Promise<Probed> {
  let over = false;
  void until.finally(() => (over = true));
  const result: Probed = { health: [], turns: [], failures: [] };
  for (let round = 0; !over || result.turns.length === 0; round++) {
    const health = await timed(() => healthRoute.GET(new Request("http://localhost/api/health")));
    result.health.push(health.ms);
    if (health.value.status !== 200) result.failures.push(`health ${health.value.status}`);
    if (round % turnEvery === 0) {
      const turn = await timed(() =>
        messagesRoute.POST(
          new Request(`http://127.0.0.1/api/conversations/${who.conversationId}/messages`, {
            method: "POST",
            headers: { "content-type": "application/json", ...who.auth },
            body: JSON.stringify({ content: `Probe ${round}. REPLY_WORDS=20`, stream: false }),
          }),
          { params: Promise.resolve({ id: who.conversationId }) },
        ),
      );
      result.turns.push(turn.ms);
      const body = (await turn.value.json()) as { error: string | null };
      if (turn.value.status !== 200 || body.error) result.failures.push(`turn ${turn.value.status} ${body.error}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return result;
}
