// The served origin, the cross-site rule and the checks proxy.ts makes of a request to
// a page path (lib/http/origin.ts, lib/http/page-writes.ts), on Request objects.
import { describe, expect, it } from "vitest";
import { crossSiteRefusal, servedOrigin, servedOverHttps, type OriginSettings } from "../../../lib/http/origin";
import { pageWriteRefusal } from "../../../lib/http/page-writes";
import { ACTION_BODY_LIMIT_BYTES } from "../../../lib/http/action-limit";

const DIRECT: OriginSettings = { BETTER_AUTH_URL: undefined, STRATA_TRUSTED_PROXIES: undefined };
const PROXIED: OriginSettings = { BETTER_AUTH_URL: undefined, STRATA_TRUSTED_PROXIES: "10.0.0.0/8" };
const PUBLIC_URL: OriginSettings = { BETTER_AUTH_URL: "https://strata.example/base", STRATA_TRUSTED_PROXIES: undefined };
const COOKIE = "better-auth.session_token=abc.def";

function request(headers: Record<string, string>, init: { method?: string; body?: BodyInit; url?: string } = {}): Request {
  return new Request(init.url ?? "http://localhost:3000/", {
    method: init.method ?? "POST",
    headers,
    ...(init.body === undefined ? {} : { body: init.body, duplex: "half" }),
  } as RequestInit);
}

describe("the served origin", () => {
  it("is the public URL when BETTER_AUTH_URL is set", () => {
    expect(servedOrigin(request({ host: "10.1.2.3:3000", "x-forwarded-proto": "http" }), PUBLIC_URL)).toBe("https://strata.example");
  });

  it("behind a configured proxy, is what it forwards (the first entry of each header)", () => {
    const forwarded = { host: "10.1.2.3:3000", "x-forwarded-proto": "https, http", "x-forwarded-host": "strata.example, inner" };
    expect(servedOrigin(request(forwarded), PROXIED)).toBe("https://strata.example");
    expect(servedOrigin(request({ host: "strata.example" }), PROXIED)).toBe("http://strata.example");
  });

  it("otherwise is the Host over plain http: a client's forwarded headers are not believed", () => {
    expect(servedOrigin(request({ host: "localhost:3000", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" }), DIRECT)).toBe(
      "http://localhost:3000",
    );
    expect(servedOrigin(request({}, { url: "https://in-process.test/x" }), DIRECT)).toBe("https://in-process.test");
  });

  it("says https only when served over it", () => {
    expect(servedOverHttps(request({ host: "localhost:3000", "x-forwarded-proto": "https" }), DIRECT)).toBe(false);
    expect(servedOverHttps(request({ host: "a", "x-forwarded-proto": "https" }), PROXIED)).toBe(true);
    expect(servedOverHttps(request({ host: "a" }), PUBLIC_URL)).toBe(true);
  });
});

describe("the cross-site rule", () => {
  const host = { host: "localhost:3000" };
  it("lets reads through whatever their origin", () => {
    expect(crossSiteRefusal(request({ ...host, cookie: COOKIE, origin: "http://evil.example" }, { method: "GET" }), DIRECT)).toBeNull();
  });

  it("wants the Origin of a change made with the session cookie", () => {
    expect(crossSiteRefusal(request({ ...host, cookie: COOKIE }), DIRECT)).toMatch(/Origin header/);
    expect(crossSiteRefusal(request({ ...host, cookie: COOKIE, origin: "http://localhost:3000" }), DIRECT)).toBeNull();
  });

  it("needs no Origin without the session cookie, or with an Authorization header", () => {
    expect(crossSiteRefusal(request({ ...host }), DIRECT)).toBeNull();
    expect(crossSiteRefusal(request({ ...host, cookie: "theme=dark" }), DIRECT)).toBeNull();
    expect(crossSiteRefusal(request({ ...host, cookie: COOKIE, authorization: "Bearer strata_x" }), DIRECT)).toBeNull();
  });

  it("compares scheme, host and port", () => {
    for (const origin of ["https://localhost:3000", "http://localhost:3001", "http://localhost", "http://evil.example", "null", "garbage"]) {
      expect(crossSiteRefusal(request({ ...host, origin }), DIRECT), origin).toMatch(/Cross-site/);
    }
    expect(crossSiteRefusal(request({ ...host, origin: "http://LOCALHOST:3000" }), DIRECT)).toBeNull();
  });
});

describe("a request to a page path", () => {
  const browser = { host: "localhost:3000", origin: "http://localhost:3000", cookie: COOKIE };
  const action = { ...browser, "next-action": "40abc", "content-type": "text/plain;charset=UTF-8" };
  const refusal = (headers: Record<string, string>, body?: BodyInit) => pageWriteRefusal(request(headers, body === undefined ? {} : { body }), DIRECT);

  /** A body in chunks, with no length declared. */
  const chunks = (bytes: number) => {
    let left = bytes;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (left <= 0) return controller.close();
        const size = Math.min(left, 65_536);
        left -= size;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
    });
  };

  it("is refused 403 from another origin, before anything else", async () => {
    expect(await refusal({ ...action, origin: "http://evil.example" }, "[]")).toMatchObject({ status: 403, code: "forbidden" });
    expect(await refusal({ ...action, "x-forwarded-host": "evil.example" }, "[]")).toMatchObject({ status: 403 });
  });

  it("is refused 413 past the action limit, declared or counted", async () => {
    expect(await refusal({ ...action, "content-length": String(ACTION_BODY_LIMIT_BYTES + 1) })).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(await refusal(action, chunks(ACTION_BODY_LIMIT_BYTES + 1))).toMatchObject({ status: 413 });
    expect(await refusal({ ...browser, "content-type": "multipart/form-data; boundary=x" }, chunks(ACTION_BODY_LIMIT_BYTES + 1))).toMatchObject({ status: 413 });
    expect(await refusal(action, JSON.stringify(["a".repeat(ACTION_BODY_LIMIT_BYTES - 4)]))).toBeNull();
  });

  it("is refused 400 when a server action's arguments are not JSON", async () => {
    expect(await refusal(action, "this is not json{")).toMatchObject({ status: 400, code: "invalid_input", message: expect.stringMatching(/not JSON/) });
    const form = (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.set(name, value);
      return data;
    };
    const multipart = async (data: FormData) => {
      const encoded = new Response(data);
      return refusal({ ...action, "content-type": encoded.headers.get("content-type")! }, await encoded.arrayBuffer());
    };
    expect(await multipart(form({ "0": "not json{" }))).toMatchObject({ status: 400, message: expect.stringMatching(/field 0/) });
    expect(await multipart(form({ "1": "[]" }))).toMatchObject({ status: 400, message: expect.stringMatching(/field 0/) });
    expect(await refusal({ ...action, "content-type": "multipart/form-data; boundary=x" }, "garbage")).toMatchObject({ status: 400 });
    expect(await multipart(form({ "0": '["$K1"]', "1_name": "free text" }))).toBeNull();
    expect(await refusal(action, '[{"conversationId":"x"}]')).toBeNull();
  });

  it("is let through otherwise: a read, or a post whose length is declared under the limit (not read)", async () => {
    expect(await pageWriteRefusal(request({ ...browser }, { method: "GET" }), DIRECT)).toBeNull();
    expect(await refusal({ ...browser, "content-type": "text/plain", "content-length": "9" }, "not json!")).toBeNull();
  });
});
