/** One HTTP exchange through Prism, with the contract violations Prism reported for it. */

/** A violation as Prism reports it (`sl-violations` header or an --errors problem body). */
export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** What came back, plus Prism's verdict. */
export interface Exchange {
  label: string;
  status: number;
  headers: Headers;
  body: unknown;
  violations: Violation[];
}

/** A request as a scenario describes it; `path` is relative to the API base (`/pets`). */
export interface ScenarioRequest {
  method?: string;
  path: string;
  apiKey?: string;
  /** A JSON value (sent as application/json) or raw text with its own content type. */
  json?: unknown;
  raw?: { contentType: string; text: string };
}

/** Sends `request` to `baseUrl` and collects Prism's violations from header and body. */
export async function exchange(
  baseUrl: string,
  label: string,
  request: ScenarioRequest,
): Promise<Exchange> {
  const headers: Record<string, string> = {};
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  let body: string | undefined;
  if (request.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.json);
  } else if (request.raw) {
    headers["content-type"] = request.raw.contentType;
    body = request.raw.text;
  }
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {}
  return {
    label,
    status: response.status,
    headers: response.headers,
    body: parsed,
    // Prism sends the same list in the header and, with --errors, in the problem body.
    violations: headerViolations(response.headers).concat(
      response.headers.has("sl-violations") ? [] : problemViolations(parsed),
    ),
  };
}

function headerViolations(headers: Headers): Violation[] {
  const raw = headers.get("sl-violations");
  return raw ? (JSON.parse(raw) as Violation[]) : [];
}

/** With --errors, Prism answers a violation with a problem body of type ...#VIOLATIONS. */
function problemViolations(body: unknown): Violation[] {
  const problem = body as { type?: unknown; validation?: Violation[] } | undefined;
  if (typeof problem?.type !== "string" || !problem.type.includes("stoplight.io/prism")) return [];
  return problem.validation?.length
    ? problem.validation
    : [
        {
          location: ["prism"],
          severity: "Error",
          code: problem.type,
          message: JSON.stringify(body),
        },
      ];
}

/** Human-readable list of violations, for failure messages. */
export function describeViolations(found: Exchange, which: Violation[]): string {
  const lines = which.map((v) => `  - ${v.location.join(".")}: ${v.message} (${v.code})`);
  return `${found.label}: HTTP ${found.status}, ${which.length} contract violation(s):\n${lines.join("\n")}`;
}

/** The response-side violations (the server broke the contract). */
export function responseViolations(found: Exchange): Violation[] {
  return found.violations.filter((v) => v.location[0] !== "request");
}

/** The request-side violations (the request broke the contract, on purpose or not). */
export function requestViolations(found: Exchange): Violation[] {
  return found.violations.filter((v) => v.location[0] === "request");
}
