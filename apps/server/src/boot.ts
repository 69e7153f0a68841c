/**
 * The server's process entry: tracing first when the environment asks for it (the OpenTelemetry
 * SDK must hook modules before the server imports them, so it is loaded here, and only then),
 * then the server (main.ts). Without OTEL_* variables nothing of OpenTelemetry is imported.
 */
await import("./main.js");
