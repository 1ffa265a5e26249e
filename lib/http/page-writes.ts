// Requests that change something through a page path: server actions (a POST with a
// Next-Action header, its arguments as React's reply encoding: JSON text, or multipart
// whose numbered fields are JSON) and forms posted to a page. Next.js answers a foreign
// origin, a body over its limit and an undecodable body with a 500; proxy.ts checks
// them here first and answers 403, 413 and 400 with a message, before Next reads a byte.
import { ACTION_BODY_LIMIT_BYTES } from "./action-limit";
import { readAtMost } from "./bounded-body";
import { SAFE_METHODS, crossSiteRefusal, firstEntry, originOf, type OriginSettings } from "./origin";

export type PageWriteRefusal = { status: 400 | 403 | 413; code: "invalid_input" | "forbidden" | "payload_too_large"; message: string };

const tooLarge = (): PageWriteRefusal => ({
  status: 413,
  code: "payload_too_large",
  message: `The request body is larger than ${ACTION_BODY_LIMIT_BYTES.toLocaleString("en-US")} bytes.`,
});

const undecodable = (what: string): PageWriteRefusal => ({
  status: 400,
  code: "invalid_input",
  message: `The server action's arguments are not valid: ${what}.`,
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with a fetch action's arguments, or null. */
async function argumentsProblem(bytes: Uint8Array, contentType: string): Promise<string | null> {
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    return isJson(new TextDecoder().decode(bytes)) ? null : "the body is not JSON";
  }
  let form: FormData;
  try {
    form = await new Response(bytes as BodyInit, { headers: { "content-type": contentType } }).formData();
  } catch {
    return "the multipart body cannot be read";
  }
  if (!form.has("0")) return "the multipart body has no arguments (field 0)";
  for (const [name, value] of form) {
    if (/^\d+$/.test(name) && typeof value === "string" && !isJson(value)) return `field ${name} is not JSON`;
  }
  return null;
}

/**
 * Next.js compares the Origin's host with X-Forwarded-Host (else Host) itself, and
 * answers a difference with a 500: a browser never sends X-Forwarded-Host, so only a
 * hand-made request (or a proxy set up so that no action could work) gets here.
 */
function hostProblem(request: Request): string | null {
  const origin = request.headers.get("origin");
  const host = firstEntry(request.headers.get("x-forwarded-host")) ?? request.headers.get("host");
  if (origin === null || host === null || originOf(origin) === null || new URL(origin).host === host) return null;
  return `The request's Origin does not match the host it was sent to (${JSON.stringify(host.slice(0, 100))}).`;
}

/**
 * Why a request to a page path must be refused (null: let Next.js have it). A body is
 * read only when it is a server action's or its length was not declared, and only up to
 * the limit.
 */
export async function pageWriteRefusal(request: Request, settings?: OriginSettings): Promise<PageWriteRefusal | null> {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const crossSite = crossSiteRefusal(request, settings);
  if (crossSite) return { status: 403, code: "forbidden", message: crossSite };
  const action = request.headers.has("next-action");
  const hostMismatch = action ? hostProblem(request) : null;
  if (hostMismatch) return { status: 403, code: "forbidden", message: hostMismatch };
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > ACTION_BODY_LIMIT_BYTES) return tooLarge();
  if (!request.body || (!action && declared !== null)) return null;
  const bytes = await readAtMost(request.body, ACTION_BODY_LIMIT_BYTES);
  if (!bytes) return tooLarge();
  if (!action) return null;
  const problem = await argumentsProblem(bytes, request.headers.get("content-type") ?? "");
  return problem ? undecodable(problem) : null;
}
