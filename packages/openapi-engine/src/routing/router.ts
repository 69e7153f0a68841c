/**
 * The router: the first step under the base path. It resolves the request to an operation of
 * the contract once, before any credential or body is read, puts that operation's compiled
 * object on `res.locals.operation` and its path values on `req.params` (as sent, percent-encoded:
 * validation decodes them), and hands the request to one of three lifecycles:
 *
 * - `operation`: a method the path declares (HEAD runs the path's GET);
 * - `options`: OPTIONS on a path that does not declare it itself (answered 204 with `Allow`);
 * - `unmatched`: an unknown path (404) or a method the path lacks (405 with `Allow`). The error
 *   is set on `res.locals.unmatched`, not raised: the credential check and rate limiting still
 *   come first, as the contract's precedence requires (a keyless request to an unknown path
 *   gets 401, counted).
 */
import type { NextFunction, Request, Response } from "express";
import { type EngineError, engineErrors } from "../errors.js";
import { type Branch, step } from "../lifecycle/lifecycle.js";
import type { PathEntry, RoutedOperation } from "./table.js";

/** What the router sets for the `operation` lifecycle. */
export interface Routed<Op> {
  /** The operation's compiled object (compiled-operation.ts): everything later steps need of it. */
  operation: Op;
}

/** What the router sets for the `options` lifecycle. */
export interface Preflight {
  /** `Allow` of the path an OPTIONS request asked about. */
  allow: string;
}

/** What the router sets for the `unmatched` lifecycle. */
export interface Unmatched {
  /** The 404 or 405 to answer once the caller is identified and counted. */
  unmatched: EngineError;
}

/** The lifecycles the router hands requests to; `Before` is what was set before the router. */
export interface RouterBranches<Op, Before extends object> {
  /** The lifecycle of each operation (built once per operation, when the router is made). */
  operation: (operation: Op) => Branch<Before & Routed<Op>>;
  options: Branch<Before & Preflight>;
  unmatched: Branch<Before & Unmatched>;
}

/** The router over `table` (mounted on the base path, after steps that set `Before`). */
export function router<Op extends RoutedOperation, Before extends object>(
  table: PathEntry<Op>[],
  branches: RouterBranches<Op, Before>,
) {
  const lifecycles = new Map<Op, Branch<Before & Routed<Op>>>();
  for (const entry of table) {
    for (const operation of entry.byMethod.values()) {
      if (!lifecycles.has(operation)) lifecycles.set(operation, branches.operation(operation));
    }
  }
  return function route(req: Request, res: Response, next: NextFunction): void {
    const path = req.path;
    for (const entry of table) {
      const match = entry.pattern.exec(path);
      if (match === null) continue;
      const operation = entry.byMethod.get(req.method);
      if (operation !== undefined) {
        const { names } = operation;
        if (names.length > 0) {
          const params: Record<string, string> = {};
          for (let i = 0; i < names.length; i++) params[names[i] as string] = match[i + 1] ?? "";
          req.params = params;
        }
        (res.locals as Routed<Op>).operation = operation;
        (lifecycles.get(operation) as Branch<Before & Routed<Op>>)(req, res, next);
      } else if (req.method === "OPTIONS") {
        (res.locals as Preflight).allow = entry.allow;
        branches.options(req, res, next);
      } else {
        (res.locals as Unmatched).unmatched = engineErrors.methodNotAllowed(
          req.method,
          entry.allow,
        );
        branches.unmatched(req, res, next);
      }
      return;
    }
    (res.locals as Unmatched).unmatched = engineErrors.noSuchPath(req.baseUrl + path);
    branches.unmatched(req, res, next);
  };
}

/**
 * The last step of the `options` lifecycle: answers OPTIONS with 204 and `Allow`, without a key
 * (after rate limiting has read, not counted, the caller's window). A CORS preflight from an
 * allowed origin already has its headers.
 */
export const answerOptions = step<Preflight>(function answerOptions(_req, res) {
  res.statusCode = 204;
  res.setHeader("Allow", res.locals.allow);
  res.end();
});

/**
 * The last step of the `unmatched` lifecycle: raises the 404 or 405 the router found, once the
 * caller is identified, counted and checked.
 */
export const refuseUnmatched = step<Unmatched>(function refuseUnmatched(_req, res, next) {
  next(res.locals.unmatched);
});
