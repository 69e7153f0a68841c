/**
 * One compiled object per operation, its route context (as Fastify's `lib/context.js`): what
 * the contract says of it (contract/), its security check (auth/), its request validator
 * (validation/), its answers' serializers or checks (responses/) and the application's handler,
 * all built once at start. The router puts it on `res.locals.operation`; every later step reads
 * it from there.
 */
import type { Logger } from "pino";
import type { CompiledSecurity, ContractSecurity } from "./auth/security.js";
import type { Contract, ServedOperation } from "./contract/contract.js";
import { type CompiledRequestBody, compileRequestBody } from "./request-body/media-types.js";
import type { AnyHandler } from "./responses/handle.js";
import { type CompiledAnswers, compileAnswers } from "./responses/handle.js";
import { headerAjv } from "./responses/header-checks.js";
import { compileValidators } from "./validation/compile.js";
import {
  type IntegerParameters,
  integerParameters,
  type RequestValidator,
} from "./validation/validate.js";

/** One operation, compiled for serving. */
export interface CompiledOperation extends ServedOperation {
  /** Its place in the contract's operations (what per-operation counters are indexed by). */
  index: number;
  /**
   * Its request body, compiled from the declared media types (request-body/media-types.ts):
   * undefined when it declares none.
   */
  body: CompiledRequestBody | undefined;
  /** Its integer parameters, whose values must be decimal digits (validation/validate.ts). */
  integers: IntegerParameters;
  /** Validates and coerces a request of it (validation/validate.ts runs it). */
  validateRequest: RequestValidator;
  /** Its documented answers: serializers, or header and body checks (responses/handle.ts). */
  answers: CompiledAnswers;
  /** The application's handler; undefined until `withHandlers` binds one (a 500 without). */
  handler: AnyHandler | undefined;
  /**
   * Its security requirements as a check with the verifiers bound, and the answers to its
   * refusals; undefined until `withSecurity` binds them (the app does, with its verifiers).
   */
  authentication: CompiledSecurity | undefined;
}

/**
 * How far a multipart body may go within the body limit: at most 100 parts (busboy's default is
 * unbounded), none larger than the body limit itself.
 */
export function multipartLimits(bodyLimitBytes: number) {
  return { parts: MULTIPART_MAX_PARTS, partBytes: bodyLimitBytes };
}

/** The most parts a `multipart/form-data` body may have (413 past it). */
export const MULTIPART_MAX_PARTS = 100;

/** The application's handlers by operationId. */
export type HandlerSet = Readonly<Record<string, unknown>>;

/**
 * Compiles every operation of `contract`, without handlers: with `validateResponses` each
 * answer is checked against the contract, without it each is written by a compiled serializer.
 * Throws naming the operation when one cannot be compiled.
 */
export async function compileOperations(
  contract: Contract,
  options: { validateResponses: boolean },
): Promise<CompiledOperation[]> {
  const validators = await compileValidators(contract, options);
  const ajv = options.validateResponses ? headerAjv() : undefined;
  return contract.operations.map((operation, i) => {
    const validator = validators[i];
    if (validator === undefined) throw new Error(`no validator for ${operation.operationId}`);
    return {
      ...operation,
      index: i,
      body:
        operation.requestBody === undefined
          ? undefined
          : compileRequestBody(operation.requestBody, multipartLimits(contract.bodyLimitBytes)),
      integers: integerParameters(contract.spec, operation),
      validateRequest: validator.validateRequest,
      answers: compileAnswers(
        contract.spec,
        operation,
        ajv === undefined
          ? { serialize: true }
          : { serialize: false, ajv, checkBody: validator.validateResponseBody },
      ),
      handler: undefined,
      authentication: undefined,
    };
  });
}

/** `operations` with their security compiled in `security` bound. */
export function withSecurity(
  operations: CompiledOperation[],
  security: ContractSecurity,
): CompiledOperation[] {
  return operations.map((operation) => ({
    ...operation,
    authentication: security.forOperation(operation.operationId),
  }));
}

/**
 * `operations` with the application's `handlers` bound. Each operation without one is logged,
 * once, here: it answers 500 `not_implemented` until one is added (a spec ahead of the code
 * never stops the service; the application's typecheck is where a missing handler fails).
 */
export function withHandlers(
  operations: CompiledOperation[],
  handlers: HandlerSet,
  logger: Logger,
): CompiledOperation[] {
  return operations.map((operation) => {
    const handler = handlers[operation.operationId];
    if (typeof handler === "function") return { ...operation, handler: handler as AnyHandler };
    logger.error(
      { operationId: operation.operationId },
      `no handler for ${operation.operationId} (${operation.method} ${operation.path}): it answers 500 not_implemented until one is added`,
    );
    return { ...operation, handler: undefined };
  });
}
