// A small real HTTP server for the retry suites: each test scripts what the next requests get,
// and every request is recorded (method, path, Authorization, body).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  requestId: string | undefined;
  body: string;
}

/**
 * One scripted answer: a status with headers and a JSON body (after `delayMs`, if given), a
 * dropped connection, or no answer at all until the server closes.
 */
export type ScriptedAnswer =
  | { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
  | { dropConnection: true }
  | { hang: true };

export interface ScriptedServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  requests: RecordedRequest[];
  /** Queues answers for the next requests; when the queue is empty the fallback answers. */
  script(...answers: ScriptedAnswer[]): void;
  /** Fixed files served at a path (not recorded, not scripted), e.g. a page and a bundle. */
  files: Map<string, { type: string; body: string | Uint8Array }>;
  /** Called for each request after it is recorded (e.g. to abort once a request arrived). */
  onRequest: ((request: RecordedRequest) => void) | undefined;
  reset(): void;
  close(): Promise<void>;
}

const FALLBACK: ScriptedAnswer = { status: 200, body: [] };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function answer(res: ServerResponse, scripted: ScriptedAnswer): void {
  if ("dropConnection" in scripted) {
    res.socket?.destroy();
    return;
  }
  if ("hang" in scripted) return;
  if (scripted.delayMs) {
    const { delayMs, ...rest } = scripted;
    setTimeout(() => answer(res, rest), delayMs);
    return;
  }
  res.writeHead(scripted.status, { "content-type": "application/json", ...scripted.headers });
  res.end(JSON.stringify(scripted.body ?? {}));
}

/** Starts the server on an ephemeral port of 127.0.0.1. */
export async function startScriptedServer(): Promise<ScriptedServer> {
  const queue: ScriptedAnswer[] = [];
  const state: ScriptedServer = {
    url: "",
    requests: [],
    files: new Map(),
    onRequest: undefined,
    script: (...answers) => {
      queue.push(...answers);
    },
    reset: () => {
      queue.length = 0;
      state.requests.length = 0;
      state.onRequest = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer(async (req, res) => {
    const file = state.files.get(req.url ?? "");
    if (file) {
      res.writeHead(200, { "content-type": file.type });
      res.end(file.body);
      return;
    }
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      authorization: req.headers.authorization,
      requestId: req.headers["x-request-id"] as string | undefined,
      body: await readBody(req),
    };
    state.requests.push(recorded);
    state.onRequest?.(recorded);
    answer(res, queue.shift() ?? FALLBACK);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** A clock for retry tests: `sleep` records each requested wait and moves `now` forward by it. */
export function fakeClock(startMs: number) {
  let nowMs = startMs;
  const waits: number[] = [];
  return {
    waits,
    now: () => nowMs,
    sleep: async (ms: number, signal: AbortSignal) => {
      signal.throwIfAborted();
      waits.push(ms);
      nowMs += ms;
    },
  };
}
