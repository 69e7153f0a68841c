import { usePauseCountdown } from "./rate-limit-pause.js";

const duration = (seconds: number) =>
  seconds >= 120 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;

/** The 429 banner: how long the API asked us to wait, counting down to the retry. */
export function PauseBanner() {
  const { active, secondsLeft, banned } = usePauseCountdown();
  if (!active) return null;
  return (
    <div className="banner" role="alert" aria-live="assertive">
      <strong>{banned ? "This API key is banned for a while." : "Too many requests."}</strong>{" "}
      {secondsLeft === null ? (
        "The API asked us to slow down; retrying shortly."
      ) : (
        <>
          The API asked us to wait: retrying in{" "}
          <span className="countdown" data-testid="retry-countdown">
            {duration(secondsLeft)}
          </span>
          .
        </>
      )}
    </div>
  );
}
