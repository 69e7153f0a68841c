/**
 * The pause after a 429, as views see it. While it lasts the page sends nothing on its own (lists
 * stop refetching, the form waits); the client waits out a short `Retry-After` itself and retries,
 * and hands a long one back. When the pause ends, queries that failed with it are fetched again.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useApi, useNow, useValue } from "./hooks.js";

/** The pause as a countdown: whether it holds, whole seconds left (null: unknown), banned or not. */
export interface PauseCountdown {
  readonly active: boolean;
  readonly secondsLeft: number | null;
  readonly banned: boolean;
}

/** The current pause, ticking down. */
export function usePauseCountdown(): PauseCountdown {
  const { api } = useApi();
  const pause = useValue(api.pause);
  const now = useNow(pause !== null);
  if (pause === null) return { active: false, secondsLeft: null, banned: false };
  if (pause.until === null) return { active: true, secondsLeft: null, banned: pause.banned };
  const left = Math.max(0, Math.ceil((pause.until - now) / 1000));
  return { active: left > 0, secondsLeft: left, banned: pause.banned };
}

/** Ends a pause whose time is up and refetches what failed during it; mount once. */
export function useResumeAfterPause(): void {
  const { api } = useApi();
  const queryClient = useQueryClient();
  const pause = useValue(api.pause);
  const { active } = usePauseCountdown();
  useEffect(() => {
    if (active || pause === null || pause.until === null) return;
    api.pause.set(null);
    // cancelRefetch false: a query that resumed by itself (enabled again) is not fetched twice.
    void queryClient.invalidateQueries(
      { predicate: (query) => query.state.status === "error" },
      { cancelRefetch: false },
    );
  }, [active, pause, api, queryClient]);
}
