import { useApi, useNow, useValue } from "./hooks.js";

/** `client.rateLimit` of the latest answer: requests left in the window, and when it resets. */
export function RateLimitMeter() {
  const { api } = useApi();
  useValue(api.answers);
  const rateLimit = api.client.rateLimit;
  const now = useNow(rateLimit !== undefined, 1000);
  if (!rateLimit) return <span className="meter muted">No answer yet</span>;
  const share = rateLimit.limit > 0 ? rateLimit.remaining / rateLimit.limit : 0;
  const resetsIn = Math.ceil((rateLimit.resetAt.getTime() - now) / 1000);
  const level = share > 0.5 ? "ok" : share > 0.1 ? "low" : "out";
  return (
    <div
      className={`meter ${level}`}
      data-testid="rate-limit"
      title={`Window resets at ${rateLimit.resetAt.toLocaleTimeString()}`}
    >
      <span className="meter-text">
        <strong>{rateLimit.remaining}</strong> of {rateLimit.limit} requests left
        {resetsIn > 0 ? ` · resets in ${resetsIn} s` : ""}
      </span>
      <span className="meter-track" aria-hidden="true">
        <span className="meter-fill" style={{ width: `${Math.round(share * 100)}%` }} />
      </span>
    </div>
  );
}
