/**
 * The metrics listener: its own HTTP server on METRICS_HOST:METRICS_PORT (127.0.0.1:9464 unless
 * set), never the API's port, so /metrics is not reachable where the API is published. It
 * answers GET /metrics (Prometheus text) and the routes it is given (the per-key usage, say);
 * anything else 404.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Registry } from "prom-client";

/** A route of the metrics listener: a path prefix and what answers below it. */
export interface MetricsRoute {
  /** e.g. `/usage/keys/`: the rest of the path is handed to `answer`. */
  prefix: string;
  answer(rest: string): Promise<{ status: number; body: unknown }>;
}

/** Where the metrics listener listens; `required`: failing to listen stops start-up. */
export interface MetricsListenerOptions {
  host: string;
  port: number;
  /** METRICS_PORT was set: a port in use is an error. Otherwise it is logged and skipped. */
  required: boolean;
  registry: Registry;
  routes?: readonly MetricsRoute[];
  logger: Logger;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  res.end(body);
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  options: MetricsListenerOptions,
): Promise<void> {
  const path = (req.url ?? "/").split("?")[0] as string;
  if (req.method !== "GET" && req.method !== "HEAD") {
    send(res, 405, "text/plain", "only GET\n");
    return;
  }
  if (path === "/metrics") {
    send(res, 200, options.registry.contentType, await options.registry.metrics());
    return;
  }
  const route = options.routes?.find((r) => path.startsWith(r.prefix));
  if (route) {
    const { status, body } = await route.answer(
      decodeURIComponent(path.slice(route.prefix.length)),
    );
    send(res, status, "application/json", `${JSON.stringify(body)}\n`);
    return;
  }
  send(res, 404, "text/plain", "not found: GET /metrics\n");
}

/** Starts the listener; resolves to it, or to null when the default port was taken (logged). */
export async function startMetricsListener(
  options: MetricsListenerOptions,
): Promise<Server | null> {
  const server = createServer((req, res) => {
    answer(req, res, options).catch((err: unknown) => {
      options.logger.error({ error: (err as Error).message }, "metrics listener: answer failed");
      if (!res.headersSent) send(res, 500, "text/plain", "failed\n");
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    const { code } = err as { code?: string };
    if (options.required || code !== "EADDRINUSE") {
      throw new Error(
        `metrics listener on ${options.host}:${options.port}: ${(err as Error).message}`,
      );
    }
    // The default port, taken (a second instance on one host): serve without metrics, say so.
    options.logger.warn(
      { host: options.host, port: options.port },
      "metrics listener not started: the default port is in use (set METRICS_PORT per instance, 0 for none)",
    );
    return null;
  }
  server.unref();
  options.logger.info(
    { url: `http://${options.host}:${options.port}/metrics` },
    "metrics listening",
  );
  return server;
}
