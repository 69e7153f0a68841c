/**
 * `spec-facts/server-statuses`: every status the server can answer an operation with is declared
 * by it (SERVER_STATUSES), so a spec edit is told at lint time, not by a 500 at run time. Option
 * `scope`: `declared` (the default, the generic layer) requires only the statuses the contract's
 * own declarations produce (429 where it declares rate-limit plans, 410 where an operation has an
 * x-sunset, 413 where it declares a body limit and the operation takes a body); `engine` (a house
 * configuration) every status the engine can send.
 */
import { operationPath, specOperations, undeclaredStatuses } from "@animal-store/openapi";
import { rootRule } from "./report.js";

/** The rule's visitor factory. */
export const serverStatusesRule = rootRule<{ scope: "declared" | "engine" }>((facts, options) => {
  const scope =
    options.scope === "engine" ? undefined : { spec: facts.spec, only: "declared" as const };
  for (const operation of specOperations(facts.spec)) {
    const responses = [...operationPath(operation), "responses"];
    for (const missing of undeclaredStatuses(operation, scope)) {
      facts.report(
        responses,
        `${operation.operationId} (${facts.at(responses)}) must declare a ${missing.status} response, because ${missing.why}.`,
      );
    }
  }
});
