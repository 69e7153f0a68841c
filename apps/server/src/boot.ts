/**
 * The server's process entry: tracing first when the environment asks for it (the OpenTelemetry
 * SDK must hook modules before the server imports them, so it is loaded here, and only then),
 * then the server (main.ts). Without it nothing of OpenTelemetry is imported.
 */
import { tracingRequested } from "./tracing-env.js";

if (tracingRequested(process.env)) {
  const { startTracing } = await import("@animal-store/openapi-engine/tracing");
  await startTracing({ serviceName: "animal-store" });
}
await import("./main.js");
