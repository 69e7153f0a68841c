/**
 * Operational endpoints outside `/v1`: liveness, readiness (the store and the rate limiter both
 * answer), the bundled contract, the rendered docs when they have been built, and the
 * application's own ops routes (a mock's reset, say).
 */
import { dirname, join } from "node:path";
import { type NextFunction, type Request, type Response, Router } from "express";
import helmet from "helmet";
import { engineErrors } from "../errors.js";
import { docsPage, firstServerUrl } from "./docs-page.js";
import type { Readiness } from "./readiness.js";

export type { Probe } from "./readiness.js";

// What a self-contained docs page needs and nothing more: its inline scripts and styles, images
// and fonts inlined as data: URLs, and a worker from a blob: URL. The reference fetches nothing;
// the try-it console (docs/try) calls this origin's API.
const docsCsp = (connectSrc: string) =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'unsafe-inline'"],
        styleSrc: ["'unsafe-inline'"],
        imgSrc: ["data:", "blob:"],
        fontSrc: ["data:"],
        workerSrc: ["blob:"],
        connectSrc: [connectSrc],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
  });
const DOCS_PAGES = [
  { path: "/docs", file: "", headers: docsCsp("'none'") },
  { path: "/docs/try", file: "try.html", headers: docsCsp("'self'") },
];

/**
 * An ops route of the application's own, outside the base path: answered like the engine's (no
 * key, never counted; OPTIONS 204 and other methods 405 with `Allow`), errors in the `Error` shape.
 */
export interface OpsRoute {
  /** e.g. `/__mock/reset`; neither one of the engine's ops paths nor under the base path. */
  path: string;
  method: "GET" | "POST";
  handle(req: Request, res: Response): void | Promise<void>;
}

/** The paths this router answers besides the application's own. */
const OPS_PATHS = ["/healthz", "/readyz", "/openapi.json", ...DOCS_PAGES.map((p) => p.path)];
const OPS_ALLOW = "GET, HEAD, OPTIONS";

/**
 * The paths of the ops routes: the engine's and `own`; throws naming a path of `own` that is one
 * of the engine's, repeats another, or lies under one of `basePaths` (the contract's paths live
 * there; under a base path of "" an own route may share the root with the contract's paths, and
 * the contract's operation wins where one has the same path).
 */
export function opsPaths(
  own: readonly OpsRoute[],
  basePaths: readonly string[],
): ReadonlySet<string> {
  const paths = new Set(OPS_PATHS);
  for (const { path } of own) {
    const underApi = basePaths.some(
      (base) => base !== "" && (path === base || path.startsWith(`${base}/`)),
    );
    if (paths.has(path) || underApi || !path.startsWith("/")) {
      throw new Error(`ops route ${path}: taken, or not a path outside the base path`);
    }
    paths.add(path);
  }
  return paths;
}

/**
 * Whether a request outside the API counts against its caller's rate-limit window: the ops
 * routes (`paths`) and OPTIONS only read it (a load balancer's health checks must not use up its
 * address's quota, nor be refused); anything else (an unknown path or version) is counted.
 */
export function countedOutsideApi(paths: ReadonlySet<string>): (req: Request) => boolean {
  return (req) => req.method !== "OPTIONS" && !paths.has(req.path);
}

/** OPTIONS answers 204 with `allow`; any other method the route does not have, 405. */
function only(allow: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method === "OPTIONS") {
      res.statusCode = 204;
      res.setHeader("Allow", allow);
      res.end();
      return;
    }
    next(engineErrors.methodNotAllowed(req.method, allow));
  };
}

/** The router for /healthz, /readyz, /openapi.json and /docs. */
export function opsRoutes(deps: {
  specText: string;
  /** Probes the backing services (by the name /readyz reports when one does not answer). */
  readiness: { check(): Promise<Readiness> };
  /**
   * Probes whose failure degrades the instance instead of making it unready: the rate-limit store
   * fails open (each instance counts alone), and since every instance shares it, answering 503 would
   * make a load balancer drop all of them at once and turn a degraded limiter into an outage.
   */
  degradable: string[];
  docsHtmlPath: string;
  /** The contract's base path: the docs' samples call this server's origin under it. */
  basePath: string;
  /** How to build the docs page, said while it is missing. */
  docsBuildHint: string;
  /** The application's own ops routes. */
  own?: readonly OpsRoute[];
}): Router {
  const router = Router();
  for (const route of deps.own ?? []) {
    const allow = `${route.method}${route.method === "GET" ? ", HEAD" : ""}, OPTIONS`;
    const handle = (req: Request, res: Response, next: NextFunction) => {
      Promise.resolve()
        .then(() => route.handle(req, res))
        .catch(next);
    };
    const routed = router.route(route.path);
    (route.method === "GET" ? routed.get(handle) : routed.post(handle)).all(only(allow));
  }
  router
    .route("/healthz")
    .get((_req, res) => {
      res.json({ status: "ok" });
    })
    .all(only(OPS_ALLOW));
  router
    .route("/readyz")
    .get(async (_req, res, next) => {
      const { failed } = await deps.readiness.check();
      const fatal = failed.filter((name) => !deps.degradable.includes(name));
      if (fatal.length > 0) {
        next(engineErrors.notReady(failed));
      } else if (failed.length > 0) {
        res.json({ status: "degraded", degraded: failed });
      } else {
        res.json({ status: "ready" });
      }
    })
    .all(only(OPS_ALLOW));
  router
    .route("/openapi.json")
    .get((_req, res) => {
      res.type("application/json").send(deps.specText);
    })
    .all(only(OPS_ALLOW));
  // The reference page, and the try-it console built next to it (try.html).
  for (const docs of DOCS_PAGES) {
    const send = docsPage({
      path: docs.file ? join(dirname(deps.docsHtmlPath), docs.file) : deps.docsHtmlPath,
      placeholder: firstServerUrl(deps.specText),
      basePath: deps.basePath,
    });
    router
      .route(docs.path)
      .get((req, res, next) => {
        docs.headers(req, res, () => {
          send(req, res).catch((error: NodeJS.ErrnoException) => {
            res.removeHeader("Content-Security-Policy");
            next(error.code === "ENOENT" ? engineErrors.docsNotBuilt(deps.docsBuildHint) : error);
          });
        });
      })
      .all(only(OPS_ALLOW));
  }
  return router;
}
