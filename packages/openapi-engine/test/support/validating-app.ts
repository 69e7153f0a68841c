/**
 * An app that routes a spec's operations and runs each request through the validation step, and
 * then `last`: the validation tests' harness (on the bundled spec, and on a spec with every
 * parameter style against the validator's stock middleware).
 */
import type { AddressInfo } from "node:net";
import {
  basePathOf,
  type OpenApiDocument,
  pathTemplatePattern,
  specOperations,
} from "@animal-store/openapi";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { multipartLimits } from "../../src/compiled-operation.js";
import { step } from "../../src/lifecycle/lifecycle.js";
import { requestBody } from "../../src/request-body/body-step.js";
import { compileRequestBody } from "../../src/request-body/media-types.js";
import { Lifecycle, router } from "../../src/routing/router.js";
import { buildRouteTable } from "../../src/routing/table.js";
import { compileValidators, type OperationValidators } from "../../src/validation/compile.js";
import { validateRequest } from "../../src/validation/validate.js";

const BODY_LIMIT = 1 << 20;

/** A listening validating app: its API base and its close. */
export interface ValidatingApp {
  base: string;
  close(): void;
}

/** Listens on a free port; every request of an operation of `spec` is validated, then `last`. */
export async function validatingApp(
  spec: OpenApiDocument,
  last: RequestHandler,
  onError: ErrorRequestHandler,
): Promise<ValidatingApp> {
  const basePath = basePathOf(spec);
  const routed = specOperations(spec).map((op) => ({ ...op, ...pathTemplatePattern(op.path) }));
  const validators = await compileValidators(
    { spec, basePath, operations: routed },
    { validateResponses: false },
  );
  const operations = routed.map((op, i) => ({
    ...op,
    // No integer syntax check: these tests compare the validator with its stock middleware.
    integers: { query: [], path: [] },
    // The engine's body step, as on the one road: validation reads the media type it selected.
    body:
      op.requestBody === undefined
        ? undefined
        : compileRequestBody(op.requestBody, multipartLimits(BODY_LIMIT)),
    ...(validators[i] as OperationValidators),
  }));
  const refuse = step((_req, res) => {
    res.status(404).json({ code: "not_found" });
  });
  const answer = step((req, res, next) => {
    last(req, res, next);
  });
  const app = express();
  const body = requestBody(BODY_LIMIT);
  // The router finds the base path itself, as in the engine: `req.path` is the whole path.
  app.use(
    router<(typeof operations)[number], object>(
      buildRouteTable(operations),
      {
        operation: () =>
          Lifecycle.after<{ operation: (typeof operations)[number] }>()
            .use(body)
            .use(validateRequest)
            .use(answer)
            .handler(),
        options: Lifecycle.after().use(refuse).handler(),
        unmatched: Lifecycle.after().use(refuse).handler(),
      },
      { basePaths: [basePath] },
    ),
  );
  app.use(onError);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}`,
    close: () => server.close(),
  };
}
