/**
 * Resolves a request under `/v1` to an operation of the contract before any body is read, so an
 * unknown path is 404 and a known path with another method is 405 with `Allow`, whatever the body.
 */
import type { NextFunction, Request, Response } from "express";
import { ApiHttpError } from "./errors.js";
import type { SpecOperation } from "./spec.js";

interface PathEntry {
  pattern: RegExp;
  byMethod: Map<string, SpecOperation>;
  allow: string;
}

/**
 * An OpenAPI path template (relative to `/v1`) as a pattern with one capture per parameter, and
 * the parameters' names. A trailing slash is tolerated, as Express does; case is not.
 */
export function templatePattern(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split("/")
    .map((segment) => {
      const name = /^\{([^}]+)\}$/.exec(segment)?.[1];
      if (name === undefined) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(name);
      return "([^/]+)";
    })
    .join("/");
  return { pattern: new RegExp(`^${source}/?$`), names };
}

function shown(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}

/** Builds the lookup table once from the contract's operations. */
export function buildOperationTable(operations: SpecOperation[]): PathEntry[] {
  const byPath = new Map<string, SpecOperation[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  return [...byPath].map(([path, ops]) => ({
    pattern: templatePattern(path).pattern,
    byMethod: new Map(ops.map((op) => [op.method, op])),
    allow: ops.map((op) => op.method).join(", "),
  }));
}

/** Middleware (mounted on `/v1`): sets `res.locals.operation`, or fails with 404/405. */
export function resolveOperation(table: PathEntry[]) {
  return function resolveOperationMiddleware(req: Request, res: Response, next: NextFunction) {
    const entry = table.find((candidate) => candidate.pattern.test(req.path));
    if (!entry) {
      next(new ApiHttpError(404, "not_found", `No such path: ${shown(req.baseUrl + req.path)}`));
      return;
    }
    const operation = entry.byMethod.get(req.method);
    if (!operation) {
      next(
        new ApiHttpError(405, "method_not_allowed", `${req.method} is not allowed here.`, {
          Allow: entry.allow,
        }),
      );
      return;
    }
    res.locals.operation = operation;
    next();
  };
}
