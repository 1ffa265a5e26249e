// What a tool server's connection is made of, validated wherever it crosses a boundary
// (the admin's form, the JSON column): a process started over stdio, or an HTTP endpoint
// (Streamable HTTP). Environment values and header values are secrets: only their names
// ever leave the server (see McpTransportView).
import { z } from "zod";
import { AppError } from "../errors";

/** Also the prefix of its tools' names for the model, so it keeps to what those allow. */
export const serverNameSchema = z
  .string()
  .trim()
  .min(1, { message: "A name is required." })
  .max(32, { message: "At most 32 characters." })
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_-]*$/, { message: "Letters, digits, - and _ only, starting with a letter or digit." });

const envNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "An environment variable name (letters, digits, _)." });
// RFC 7230 token characters.
const headerNameSchema = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { message: "A header name." });
const secretValue = z.string().max(10_000);

export const stdioTransportSchema = z.object({
  kind: z.literal("stdio"),
  command: z.string().trim().min(1, { message: "A command is required." }).max(1_000),
  args: z.array(z.string().max(4_000)).max(100).default([]),
  env: z.record(envNameSchema, secretValue).default({}),
});

export const httpTransportSchema = z.object({
  kind: z.literal("http"),
  url: z.url({ protocol: /^https?$/, message: "An http:// or https:// URL." }).max(2_000),
  headers: z.record(headerNameSchema, secretValue).default({}),
});

export const transportSchema = z.discriminatedUnion("kind", [stdioTransportSchema, httpTransportSchema]);
export type McpTransport = z.infer<typeof transportSchema>;

/** What the browser may see of a transport: the secrets' names, never their values. */
export type McpTransportView =
  | { kind: "stdio"; command: string; args: string[]; envNames: string[] }
  | { kind: "http"; url: string; headerNames: string[] };

export function transportView(transport: McpTransport): McpTransportView {
  return transport.kind === "stdio"
    ? { kind: "stdio", command: transport.command, args: transport.args, envNames: Object.keys(transport.env).sort() }
    : { kind: "http", url: transport.url, headerNames: Object.keys(transport.headers).sort() };
}

/**
 * The admin's form for a transport. A secret sent without a value keeps the one stored
 * under that name (the form never had it); a name left out is removed.
 */
const secretEntry = <N extends z.ZodType<string>>(name: N) => z.object({ name, value: secretValue.optional() });

export const transportInputSchema = z.discriminatedUnion("kind", [
  stdioTransportSchema.omit({ env: true }).extend({ env: z.array(secretEntry(envNameSchema)).max(100).default([]) }),
  httpTransportSchema.omit({ headers: true }).extend({ headers: z.array(secretEntry(headerNameSchema)).max(100).default([]) }),
]);
export type McpTransportInput = z.infer<typeof transportInputSchema>;

function mergeSecrets(entries: readonly { name: string; value?: string | undefined }[], stored: Record<string, string>, what: string): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const { name, value } of entries) {
    const kept = value ?? stored[name];
    if (kept === undefined) throw new AppError("invalid_input", `${what} ${name} has no value.`);
    merged[name] = kept;
  }
  return merged;
}

/** The transport to store from the form and, when editing, the stored one (whose secrets a blank value keeps). */
export function transportFromInput(input: McpTransportInput, stored?: McpTransport): McpTransport {
  if (input.kind === "stdio") {
    const env = mergeSecrets(input.env, stored?.kind === "stdio" ? stored.env : {}, "Environment variable");
    return { kind: "stdio", command: input.command, args: input.args, env };
  }
  const headers = mergeSecrets(input.headers, stored?.kind === "http" ? stored.headers : {}, "Header");
  return { kind: "http", url: input.url, headers };
}

export const serverInputSchema = z.object({
  name: serverNameSchema,
  transport: transportInputSchema,
  enabled: z.boolean().default(true),
  onByDefault: z.boolean().default(false),
});
export type McpServerInput = z.infer<typeof serverInputSchema>;
