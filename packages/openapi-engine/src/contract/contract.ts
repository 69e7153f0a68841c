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
  deprecationHeaders,
  documentedHeaderNames,
  documentedResponses,
  type LoadedSpec,
  type OpenApiDocument,
  operationDeprecation,
  pathTemplatePattern,
  type RateLimitPolicy,
  rateLimitPolicy,
  requestBodyLimitBytes,
  requestHeaderNames,
  requestTargetLimitBytes,
  type SpecOperation,
  serverBasePaths,
  specOperations,
} from "@animal-store/openapi";
import { checkErrorCodes } from "./error-codes.js";
import { type IntegerParameters, integerParameters } from "./integer-parameters.js";

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
  /** Its integer parameters, whose values must be decimal digits (validation/validate.ts). */
  integers: IntegerParameters;
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
  rateLimit: RateLimitPolicy;
  bodyLimitBytes: number;
  /** The longest request target served (`info.x-request-target-limit-bytes`). */
  targetLimitBytes: number;
  /** The realm of the bearer challenge (`x-realm` of the security scheme, else the title). */
  realm: string;
  /** The methods of the operations, and every response header the contract documents. */
  cors: { methods: string[]; exposedHeaders: string[]; allowedHeaders: string[] };
}

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
  checkErrorCodes(spec, operations);
  const compiled = operations.map(
    (operation): ServedOperation => ({
      ...operation,
      ...pathTemplatePattern(operation.path),
      requiresCredential: !allowsAnonymous(operation),
      integers: integerParameters(spec, operation),
      deprecation: compileDeprecation(spec, operation, operations),
      responses: documentedResponses(spec, operation),
    }),
  );
  return {
    spec,
    text,
    basePaths,
    basePath: basePaths[0] as string,
    operations: compiled,
    anonymousByDefault: allowsAnonymous({ security: spec.security ?? [] }),
    rateLimit: rateLimitPolicy(spec),
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
