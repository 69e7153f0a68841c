/**
 * Operational endpoints outside `/v1`: liveness, readiness (the store and the rate limiter both
 * answer), the bundled contract, and the rendered docs when they have been built.
 */
import { readFile } from "node:fs/promises";
import { type NextFunction, type Request, type Response, Router } from "express";
import helmet from "helmet";
import { engineErrors } from "../errors.js";

/** Something whose backing service can be probed. */
export interface Probe {
  check(): Promise<void>;
}

// Redoc's page runs inline scripts and styles and a search worker from a blob: URL.
const docsHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-inline'"],
      styleSrc: ["'self'", "'unsafe-inline'", "https:"],
      imgSrc: ["'self'", "data:", "https:"],
      fontSrc: ["'self'", "data:", "https:"],
      workerSrc: ["'self'", "blob:"],
      frameAncestors: ["'none'"],
    },
  },
});

/** The paths this router answers. */
const OPS_PATHS = new Set(["/healthz", "/readyz", "/openapi.json", "/docs"]);
const OPS_ALLOW = "GET, HEAD, OPTIONS";

/**
 * Whether a request outside the API counts against its caller's rate-limit window: the ops
 * routes and OPTIONS only read it (a load balancer's health checks must not use up its address's
 * quota, nor be refused); anything else (an unknown path or version) is counted.
 */
export function countedOutsideApi(req: Request): boolean {
  return req.method !== "OPTIONS" && !OPS_PATHS.has(req.path);
}

/** OPTIONS answers 204 with `Allow`; any other method it does not have, 405. */
function only(req: Request, res: Response, next: NextFunction): void {
  if (req.method === "OPTIONS") {
    res.statusCode = 204;
    res.setHeader("Allow", OPS_ALLOW);
    res.end();
    return;
  }
  next(engineErrors.methodNotAllowed(req.method, OPS_ALLOW));
}

/** The router for /healthz, /readyz, /openapi.json and /docs. */
export function opsRoutes(deps: {
  specText: string;
  /** Backing services by the name /readyz reports when one does not answer. */
  probes: Record<string, Probe>;
  /**
   * Probes whose failure degrades the instance instead of making it unready: the rate-limit store
   * fails open (each instance counts alone), and since every instance shares it, answering 503 would
   * make a load balancer drop all of them at once and turn a degraded limiter into an outage.
   */
  degradable: string[];
  docsHtmlPath: string;
  /** How to build the docs page, said while it is missing. */
  docsBuildHint: string;
}): Router {
  const router = Router();
  router
    .route("/healthz")
    .get((_req, res) => {
      res.json({ status: "ok" });
    })
    .all(only);
  router
    .route("/readyz")
    .get(async (_req, res, next) => {
      const names = Object.keys(deps.probes);
      const results = await Promise.allSettled(names.map((name) => deps.probes[name]?.check()));
      const failed = names.filter((_, i) => results[i]?.status === "rejected");
      const fatal = failed.filter((name) => !deps.degradable.includes(name));
      if (fatal.length > 0) {
        next(engineErrors.notReady(failed));
      } else if (failed.length > 0) {
        res.json({ status: "degraded", degraded: failed });
      } else {
        res.json({ status: "ready" });
      }
    })
    .all(only);
  router
    .route("/openapi.json")
    .get((_req, res) => {
      res.type("application/json").send(deps.specText);
    })
    .all(only);
  router
    .route("/docs")
    .get(async (_req, res, next) => {
      let html: string;
      try {
        html = await readFile(deps.docsHtmlPath, "utf8");
      } catch {
        next(engineErrors.docsNotBuilt(deps.docsBuildHint));
        return;
      }
      docsHeaders(_req, res, () => {
        res.type("text/html").send(html);
      });
    })
    .all(only);
  return router;
}
