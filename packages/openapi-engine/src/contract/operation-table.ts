/**
 * Resolves a request under the base path to an operation of the contract, first thing, before
 * any credential or body is read: one table, the path parameters captured once. An unknown path
 * (404) or a known path with another method (405, with `Allow`) is recorded rather than raised
 * here, so that the credential check and rate limiting still come first, as the contract's
 * precedence requires (a keyless request to an unknown path gets 401, counted). HEAD runs the
 * path's GET operation (RFC 9110: wherever GET is); OPTIONS is recorded for its own answer.
 */
import { HTTP_METHODS } from "@animal-store/openapi";
import type { NextFunction, Request, Response } from "express";
import { engineErrors } from "../errors.js";
import type { CompiledOperation, RoutedOperation } from "./contract.js";

/** All operations of one path template. */
export interface PathEntry<Op extends RoutedOperation = CompiledOperation> {
  pattern: RegExp;
  byMethod: Map<string, Op>;
  /** The `Allow` value: the operations' methods, HEAD where there is a GET, and OPTIONS. */
  allow: string;
}

/** The methods a path answers: its operations', HEAD with a GET, OPTIONS always. */
export function allowedMethods(declared: string[]): string[] {
  const methods = new Set(declared);
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  return HTTP_METHODS.map((method) => method.toUpperCase()).filter((method) => methods.has(method));
}

/** Builds the lookup table once from the contract's operations. */
export function buildOperationTable<Op extends RoutedOperation>(operations: Op[]): PathEntry<Op>[] {
  const byPath = new Map<string, Op[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  return [...byPath.values()].map((ops) => {
    const byMethod = new Map(ops.map((op) => [op.method as string, op]));
    const get = byMethod.get("GET");
    if (get && !byMethod.has("HEAD")) byMethod.set("HEAD", get);
    return {
      pattern: (ops[0] as Op).pattern,
      byMethod,
      allow: allowedMethods(ops.map((op) => op.method)).join(", "),
    };
  });
}

/**
 * Middleware (mounted on the base path): sets `res.locals.operation` and the captured path
 * values; or `res.locals.optionsAllow` for an OPTIONS request the path does not declare itself;
 * or `res.locals.routeError` (404/405) for `requireCredential` to raise.
 */
export function resolveOperation(table: PathEntry<RoutedOperation>[]) {
  return function resolveOperationMiddleware(req: Request, res: Response, next: NextFunction) {
    const path = req.path;
    for (const entry of table) {
      const match = entry.pattern.exec(path);
      if (match === null) continue;
      const operation = entry.byMethod.get(req.method);
      if (operation !== undefined) {
        // Routed operations of the served contract are compiled ones (tests route bare ones).
        res.locals.operation = operation as CompiledOperation;
        res.locals.pathMatch = match;
      } else if (req.method === "OPTIONS") {
        res.locals.optionsAllow = entry.allow;
      } else {
        res.locals.routeError = engineErrors.methodNotAllowed(req.method, entry.allow);
      }
      next();
      return;
    }
    res.locals.routeError = engineErrors.noSuchPath(req.baseUrl + path);
    next();
  };
}

/**
 * Middleware, after rate limiting (which does not count it): answers an OPTIONS request with 204
 * and `Allow`, without a key. A CORS preflight from an allowed origin already has its headers.
 */
export function answerOptions(_req: Request, res: Response, next: NextFunction): void {
  const allow = res.locals.optionsAllow;
  if (allow === undefined) {
    next();
    return;
  }
  res.statusCode = 204;
  res.setHeader("Allow", allow);
  res.end();
}
