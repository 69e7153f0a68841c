/**
 * The application of the security fixture (`test/fixtures/security.yaml`): every operation answers
 * who the engine identified, over the widgets store (for its key table: the engine's key store
 * checks the bearer and header-key schemes). Its verifiers stand for an application's own checks
 * of the other schemes: a password list, a feed-token list, sessions, and two token issuers.
 */
import type { LoadedSpec } from "@animal-store/openapi";
import type { Application } from "../../src/application.js";
import type { Caller, Verifiers } from "../../src/auth/security.js";
import { loadFixture } from "./fixture-contract.js";
import { openWidgetStore, type WidgetStore, widgetApplication } from "./widget-app.js";

/** Staff passwords by user-id (a colon and non-ASCII in one: RFC 7617 splits at the first colon). */
export const STAFF = { ann: "gate: wörd", bo: "hunter2" } as const;
/** Feed tokens (apiKey in the query) and visit sessions (apiKey in a cookie), to subjects. */
export const FEEDS: Record<string, string> = { "feed-7f3a": "feed:press" };
export const SESSIONS: Record<string, string> = { "visit 42": "visit:42" };
/** Access tokens of the oauth2 issuer and ID tokens of the openIdConnect one, to their scopes. */
export const ACCESS_TOKENS: Record<string, string[]> = {
  "at-reader": ["logbook:read"],
  "at-writer": ["logbook:write"],
};
export const ID_TOKENS: Record<string, string[]> = { "id-ann": ["openid"], "id-noscope": [] };

/** The verifiers of the schemes the key store does not check. */
export function securityVerifiers(): Verifiers {
  return {
    staffLogin: (credential) =>
      credential.kind === "basic" &&
      Object.hasOwn(STAFF, credential.userId) &&
      STAFF[credential.userId as keyof typeof STAFF] === credential.password
        ? { subject: `staff:${credential.userId}` }
        : null,
    feedToken: (credential) =>
      credential.kind === "apiKey" && Object.hasOwn(FEEDS, credential.key)
        ? { subject: FEEDS[credential.key] as string }
        : null,
    // Asynchronous, as a session store answers.
    visitSession: async (credential) =>
      credential.kind === "apiKey" && Object.hasOwn(SESSIONS, credential.key)
        ? { subject: SESSIONS[credential.key] as string }
        : null,
    gateAuth: async (credential) =>
      credential.kind === "bearer" && Object.hasOwn(ACCESS_TOKENS, credential.token)
        ? { subject: `client:${credential.token}`, scopes: ACCESS_TOKENS[credential.token] }
        : null,
    gateId: (credential) =>
      credential.kind === "bearer" && Object.hasOwn(ID_TOKENS, credential.token)
        ? { subject: `user:${credential.token}`, scopes: ID_TOKENS[credential.token] }
        : null,
  };
}

/** What every operation answers: the caller as the engine identified it. */
function identity(caller: Caller) {
  if (caller.kind === "key") return { kind: caller.kind, subject: caller.key.id };
  if (caller.kind === "credential")
    return {
      kind: caller.kind,
      subject: caller.subject,
      schemes: caller.credentials.map((credential) => credential.scheme),
    };
  return { kind: caller.kind };
}

/** The security fixture's application (`spec`, default the fixture itself). */
export function securityApplication(
  spec: LoadedSpec = loadFixture("security"),
): Application<WidgetStore> {
  const operations = Object.values(spec.spec.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId),
  );
  const answer = ({
    caller,
    reply,
  }: {
    caller: Caller;
    reply: (s: number, b: unknown) => unknown;
  }) => reply(200, identity(caller));
  return {
    ...widgetApplication(spec, { service: "gatehouse" }),
    openScratchStore: () => openWidgetStore(":memory:"),
    handlers: () =>
      Object.fromEntries(operations.filter((id) => id !== undefined).map((id) => [id, answer])),
    verifiers: securityVerifiers,
  };
}
