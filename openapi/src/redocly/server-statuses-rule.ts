/**
 * `spec-facts/server-statuses`: every status the server can answer an operation with is declared
 * by it (SERVER_STATUSES), so a spec edit is told at lint time, not by a 500 at run time.
 */
import { specOperations } from "../operations.js";
import { undeclaredStatuses } from "../server-statuses.js";
import { rootRule } from "./report.js";
import { operationPath } from "./spec-walk.js";

/** The rule's visitor factory. */
export const serverStatusesRule = rootRule((facts) => {
  for (const operation of specOperations(facts.spec)) {
    const responses = [...operationPath(operation), "responses"];
    for (const missing of undeclaredStatuses(operation)) {
      facts.report(
        responses,
        `${operation.operationId} (${facts.at(responses)}) must declare a ${missing.status} response, because ${missing.why}.`,
      );
    }
  }
});
