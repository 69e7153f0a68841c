/** Assertions of the Prism gate, and the ledger of which documented statuses were exercised. */
import { loadBundledSpec, specOperations } from "@animal-store/openapi";
import { expect } from "vitest";
import {
  describeViolations,
  type Exchange,
  requestViolations,
  responseViolations,
} from "./exchange.js";

/** What a scenario expects back. */
export interface Expected {
  operation: string;
  status: number;
  /** The Error body's `code`, for error statuses. */
  code?: string;
}

/**
 * The request was valid, so Prism (`--errors`) must have reported nothing at all, and the server's
 * answer must be the expected one. Violations are printed in the failure message.
 */
export function expectConforming(found: Exchange, expected: Expected): void {
  expect(found.violations, describeViolations(found, found.violations)).toEqual([]);
  expectAnswer(found, expected);
}

/**
 * The request broke the contract on purpose (so it went through the proxy without `--errors`):
 * Prism must have seen the request violation, and nothing may be wrong with the response.
 */
export function expectConformingAnswerToBadRequest(found: Exchange, expected: Expected): void {
  const wrong = responseViolations(found);
  expect(wrong, describeViolations(found, wrong)).toEqual([]);
  expect(
    requestViolations(found).length,
    `${found.label}: Prism saw no request violation`,
  ).toBeGreaterThan(0);
  expectAnswer(found, expected);
}

function expectAnswer(found: Exchange, expected: Expected): void {
  expect(found.status, `${found.label}: ${JSON.stringify(found.body)}`).toBe(expected.status);
  if (expected.code !== undefined) {
    expect(found.body).toMatchObject({ code: expected.code, status: expected.status });
  }
}

/** Every `operationId status` the contract documents, read from the bundled spec. */
export function documentedStatuses(): string[] {
  return specOperations(loadBundledSpec().spec).flatMap((op) =>
    op.statuses.map((status) => `${op.operationId} ${status}`),
  );
}

/** Records which documented statuses a suite really produced and checked. */
export class CoverageLedger {
  private readonly seen = new Set<string>();

  /** Marks `operation status` as exercised (call after the assertions passed). */
  record(expected: Expected): void {
    this.seen.add(`${expected.operation} ${expected.status}`);
  }

  /** The documented statuses not exercised yet. */
  missing(): string[] {
    return documentedStatuses().filter((entry) => !this.seen.has(entry));
  }
}
