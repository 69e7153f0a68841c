import { isApiErrorBody } from "@animal-store/client";
import { useApi } from "./hooks.js";

/**
 * An error as the user should read it. A 429 and a 401 are shown elsewhere (the banner, the key
 * screen); a failed fetch is most often the API refusing this origin (CORS) or not running.
 */
export function ErrorNotice({ error }: { error: unknown }) {
  const { api } = useApi();
  if (error === null || error === undefined) return null;
  if (isApiErrorBody(error)) {
    if (error.status === 429 || error.status === 401) return null;
    return (
      <p className="notice error" role="alert">
        {error.message} <span className="code">{error.code}</span>
      </p>
    );
  }
  if (error instanceof TypeError) {
    return (
      <p className="notice error" role="alert">
        Could not reach the API at <code>{api.baseUrl}</code>. Is it running, and does it allow this
        page's origin? For <code>pnpm start</code>:{" "}
        <code>CORS_ORIGINS={window.location.origin}</code>.
      </p>
    );
  }
  return (
    <p className="notice error" role="alert">
      Unexpected answer: {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
