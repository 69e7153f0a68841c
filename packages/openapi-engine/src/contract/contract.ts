/**
 * The contract compiled for serving: every operation with what the server does for it (how its
 * path is matched, whether it needs a credential, its deprecation headers and sunset, its
 * documented responses), and the contract-wide values (base path, rate-limit policy, body limit,
 * CORS lists). Built once at start from the bundled spec; nothing here is restated by hand.
 */
import {
  allowsAnonymous,
  bearerRealm,
  type DocumentedResponse,
  declaredRateLimitPolicy,
  deprecationHeaders,
  documentedHeaderNames,
  documentedResponses,
  type LoadedSpec,
  type OpenApiDocument,
  operationDeprecation,
  pathTemplatePattern,
  type RateLimitPolicy,
  requestBodyLimitBytes,
  requestHeaderNames,
  requestTargetLimitBytes,
  type SpecOperation,
  serverBasePaths,
  specOperations,
} from "@animal-store/openapi";
import { compileErrorShape, type ErrorShape } from "../errors/problem-details.js";
import { checkErrorCodes } from "./error-codes.js";

/** What a deprecated operation's answers carry, and when it starts answering 410. */
export interface CompiledDeprecation {
  headers: ReadonlyArray<readonly [string, string]>;
  /** The sunset instant in ms since the epoch; undefined when none is set. */
  sunsetMs: number | undefined;
  goneMessage: string;
}

/**
 * What the contract says about serving one operation, in one object built from the spec's
 * operation: how its path is matched, whether it needs a credential, its integer parameters, its
 * deprecation, its documented responses. The compiled operation (compiled-operation.ts) is this
 * with what is built from it: its validator, its answers' serializers and checks, its handler.
 */
export interface ServedOperation extends SpecOperation {
  /** The path template as a pattern capturing each parameter, and the parameters' names. */
  pattern: RegExp;
  names: string[];
  requiresCredential: boolean;
  deprecation: CompiledDeprecation | undefined;
  responses: DocumentedResponse[];
}

/** The whole contract, ready to serve. */
export interface Contract {
  spec: OpenApiDocument;
  /** The bundle's text, served at /openapi.json. */
  text: string;
  /**
   * Every base path of the contract's `servers` (`/v1`; "" for the root), in their order: the
   * API answers under each.
   */
  basePaths: string[];
  /** The first of them: where the warm-up, the docs and the start-up's log address the API. */
  basePath: string;
  operations: ServedOperation[];
  /** Whether a request that matches no operation may go without a credential (root security). */
  anonymousByDefault: boolean;
  /**
   * Whether the contract declares rate limits (`info.x-rate-limit-*`). Without them nothing is
   * counted and no answer carries rate-limit headers; `rateLimit` is then one plan without limits.
   */
  rateLimited: boolean;
  /** The rate-limit policy (`info.x-rate-limit-*`, else one plan without limits). */
  rateLimit: RateLimitPolicy;
  /** The longest request body (`info.x-request-body-limit-bytes`, else 1 MiB). */
  bodyLimitBytes: number;
  /** The longest request target served (`info.x-request-target-limit-bytes`, else 8000). */
  targetLimitBytes: number;
  /** The realm of the bearer challenge (`x-realm` of the security scheme, else the title). */
  realm: string;
  /** How the engine's own errors are written: the contract's JSON error schema, else problem+json. */
  errorShape: ErrorShape;
  /** A JSON error schema the engine's body does not fit (warned of at start), if any. */
  errorShapeMismatch: string | undefined;
  /** The methods of the operations, and every response header the contract documents. */
  cors: { methods: string[]; exposedHeaders: string[]; allowedHeaders: string[] };
}

const NEVER = 0;

/** The one plan of a contract that declares no rate limits: no limits, and nothing counted. */
export const UNLIMITED_PLAN = "unlimited";

/**
 * The policy of a contract without `info.x-rate-limit-*`: one plan without limits, no ban. Keys
 * are issued on it; the counting steps are left out (`Contract.rateLimited` false), so no request
 * is counted and no answer carries rate-limit headers.
 */
const UNLIMITED: RateLimitPolicy = Object.freeze({
  planNames: [UNLIMITED_PLAN],
  plans: {
    [UNLIMITED_PLAN]: {
      perMinute: Number.MAX_SAFE_INTEGER,
      perDay: Number.MAX_SAFE_INTEGER,
      custom: false,
    },
  },
  anonymousPlan: UNLIMITED_PLAN,
  // Never banned: nothing is counted.
  ban: { threshold: NEVER, seconds: NEVER },
});

function dateOf(instant: Date): string {
  const iso = instant.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

function compileDeprecation(
  spec: OpenApiDocument,
  operation: SpecOperation,
  operations: SpecOperation[],
): CompiledDeprecation | undefined {
  const deprecation = operationDeprecation(spec, operation, operations);
  if (!deprecation) return undefined;
  const { sunset, successor } = deprecation;
  const removed = `${operation.method} ${operation.path} was removed on ${sunset ? dateOf(sunset) : "?"}`;
  return {
    headers: Object.entries(deprecationHeaders(deprecation)),
    sunsetMs: sunset?.getTime(),
    goneMessage: successor ? `${removed}; use ${successor.text} instead.` : `${removed}.`,
  };
}

/** Compiles the bundled contract; throws a message naming the part of the spec at fault. */
export function compileContract({ spec, text }: LoadedSpec): Contract {
  const operations = specOperations(spec);
  const basePaths = serverBasePaths(spec);
  const realm = bearerRealm(spec, operations);
  const rateLimit = declaredRateLimitPolicy(spec);
  const anonymousByDefault = allowsAnonymous({ security: spec.security ?? [] });
  checkErrorCodes(spec, operations, { rateLimited: rateLimit !== undefined, anonymousByDefault });
  const compiled = operations.map(
    (operation): ServedOperation => ({
      ...operation,
      ...pathTemplatePattern(operation.path),
      requiresCredential: !allowsAnonymous(operation),
      deprecation: compileDeprecation(spec, operation, operations),
      responses: documentedResponses(spec, operation),
    }),
  );
  const errors = compileErrorShape(
    spec,
    compiled.map((op) => ({ where: op.operationId, responses: op.responses })),
  );
  return {
    spec,
    text,
    basePaths,
    basePath: basePaths[0] as string,
    operations: compiled,
    anonymousByDefault,
    rateLimited: rateLimit !== undefined,
    rateLimit: rateLimit ?? UNLIMITED,
    errorShape: errors.shape,
    errorShapeMismatch: errors.mismatch,
    bodyLimitBytes: requestBodyLimitBytes(spec),
    targetLimitBytes: requestTargetLimitBytes(spec),
    realm,
    cors: {
      methods: [...new Set(operations.map((op) => op.method))],
      // Besides the documented headers: the request id the engine echoes, and Date, which a
      // browser may not read cross-origin unless exposed (clients correct clock skew with it).
      exposedHeaders: [
        ...new Set([...documentedHeaderNames(spec, operations), "X-Request-Id", "Date"]),
      ],
      // Besides the contract's request headers: the request id a client may send to be echoed.
      allowedHeaders: ["X-Request-Id", ...requestHeaderNames(spec, operations)],
    },
  };
}
