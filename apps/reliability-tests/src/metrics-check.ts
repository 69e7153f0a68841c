/**
 * Requests of known kinds sent to a running server, then its /metrics compared with them: each
 * counter moved by exactly what was sent (by the contract's operationId, method and status, or
 * the fixed label of a request without an operation), the latency histogram counted them, a 429
 * is counted under the key's plan, and no raw path became a label.
 */
import { randomBytes } from "node:crypto";
import { operationAt } from "@animal-store/test-support/spec";
import { expect } from "vitest";
import { sample, scrape } from "./prometheus-text.js";

/** What the check needs: the server, its metrics URL, a key with room, and a key of 2 a minute. */
export interface MetricsCheck {
  apiUrl: string;
  metricsUrl: string;
  basePath: string;
  roomyKey: string;
  /** A key whose per-minute limit is `tightPerMinute`, on plan `tightPlan`. */
  tightKey: string;
  tightPlan: string;
  tightPerMinute: number;
}

export async function checkMetricsAgainstRequests(check: MetricsCheck): Promise<void> {
  const list = operationAt("/pets", "get").operationId;
  const before = (await scrape(check.metricsUrl)).samples;
  const sent = new Map<string, number>();
  const send = async (label: string, method: string, target: string, key?: string) => {
    const res = await fetch(`${check.apiUrl}${target}`, {
      method,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
    await res.arrayBuffer();
    const id = `${label}|${method}|${res.status}`;
    sent.set(id, (sent.get(id) ?? 0) + 1);
    return res.status;
  };
  for (let i = 0; i < 3; i++) await send(list, "GET", `${check.basePath}/pets`, check.roomyKey);
  await send(list, "HEAD", `${check.basePath}/pets`, check.roomyKey);
  await send(list, "GET", `${check.basePath}/pets`);
  const stray = Array.from({ length: 3 }, () => `zz-${randomBytes(6).toString("hex")}`);
  for (const path of stray)
    await send("_unmatched", "GET", `${check.basePath}/${path}`, check.roomyKey);
  await send("_outside_api", "GET", `/${stray[0]}`);
  const statuses: number[] = [];
  for (let i = 0; i <= check.tightPerMinute; i++) {
    statuses.push(await send(list, "GET", `${check.basePath}/pets`, check.tightKey));
  }
  expect(statuses.at(-1), "the tight key's request over its limit").toBe(429);

  const { samples: after, text } = await scrape(check.metricsUrl);
  for (const [id, count] of sent) {
    const [operation_id = "", method = "", status = ""] = id.split("|");
    const labels = { operation_id, method, status };
    const moved =
      sample(after, "http_server_requests_total", labels) -
      sample(before, "http_server_requests_total", labels);
    expect(moved, `http_server_requests_total ${id}`).toBe(count);
  }
  const listCount = [...sent]
    .filter(([id]) => id.startsWith(`${list}|`))
    .reduce((n, [, c]) => n + c, 0);
  const histogram = { operation_id: list };
  expect(
    sample(after, "http_server_request_duration_seconds_count", histogram) -
      sample(before, "http_server_request_duration_seconds_count", histogram),
  ).toBe(listCount);
  const refusal = { plan: check.tightPlan, code: "rate_limited" };
  expect(
    sample(after, "rate_limit_refusals_total", refusal) -
      sample(before, "rate_limit_refusals_total", refusal),
  ).toBe(1);
  expect(sample(after, "http_server_requests_in_flight")).toBe(0);
  expect(after.has("process_cpu_user_seconds_total")).toBe(true);
  for (const path of stray) expect(text).not.toContain(path);
  // Never on the API's port.
  expect((await fetch(`${check.apiUrl}/metrics`)).status).toBe(404);
}
