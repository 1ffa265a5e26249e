// Hostile traffic to the public /api/auth endpoints, as an audit sent it: 200 MB sign-in
// bodies and a stream of wrong passwords each claiming a new X-Forwarded-For. Each is
// refused early (413 at 64 KB; 429 once the account has had its five attempts), memory
// stays flat, and another user's health check and turn are served meanwhile.
import { describe, expect, it } from "vitest";
import * as authRoute from "../../app/api/auth/[...all]/route";
import * as healthRoute from "../../app/api/health/route";
import { PEER_HEADER } from "../../lib/auth/client-address";
import { setupHarness } from "./support/harness";
import { bystander, probeWhile } from "./support/bystander";
import { signInResponse, signUp, uniqueEmail } from "../support/accounts";

setupHarness();

const MB = 1024 * 1024;

/** A sign-in body of `size` bytes made as it is read, and how much of it was read. */
function hugeSignIn(size: number) {
  const counter = { pulled: 0 };
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"email":"a@example.com","password":"'));
    },
    pull(controller) {
      counter.pulled += chunk.byteLength;
      if (counter.pulled >= size) controller.close();
      else controller.enqueue(chunk);
    },
  });
  const request = new Request("http://127.0.0.1/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://127.0.0.1", [PEER_HEADER]: "198.51.100.66" },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, counter };
}

async function healthWithin(): Promise<number> {
  const started = performance.now();
  const response = await healthRoute.GET(new Request("http://localhost/api/health"));
  expect(response.status).toBe(200);
  return performance.now() - started;
}

describe("hostile sign-in traffic", () => {
  it("four 200 MB sign-in bodies are cut off at 64 KB: 413, a few MB of memory at most, health answered meanwhile", async () => {
    const before = process.memoryUsage().rss;
    const floods = Array.from({ length: 4 }, () => hugeSignIn(200 * MB));
    const flooding = Promise.all(floods.map(({ request }) => authRoute.POST(request)));
    const [responses, healthMs, seen] = await Promise.all([flooding, healthWithin(), probeWhile(await bystander(), flooding, 1)]);
    expect(responses.map((response) => response.status)).toEqual([413, 413, 413, 413]);
    expect(seen.failures).toEqual([]);
    expect(Math.max(...seen.turns)).toBeLessThan(1000);
    for (const { counter } of floods) expect(counter.pulled).toBeLessThan(MB);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * MB);
    expect(healthMs).toBeLessThan(1000);
  });

  it("200 wrong passwords with a new X-Forwarded-For each: five reach the password check, the rest wait", async () => {
    const user = await signUp(uniqueEmail("flooded"));
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          signInResponse(user.email, `guess ${batch}-${index}`, "198.51.100.67", { "x-forwarded-for": `203.0.113.${batch * 20 + index}` }),
        ),
      );
      statuses.push(...answers.map((response) => response.status));
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(195);
    expect(await healthWithin()).toBeLessThan(1000);
  });
});
