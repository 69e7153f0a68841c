/**
 * Whether the environment asks for traces, by the standard OTEL_* variables: an exporter named in
 * OTEL_TRACES_EXPORTER (anything but `none`), or an OTLP endpoint set; OTEL_SDK_DISABLED=true
 * turns it off. Imports nothing, so the entry can decide before loading anything else.
 */
export function tracingRequested(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter) return exporter !== "none";
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim(),
  );
}
