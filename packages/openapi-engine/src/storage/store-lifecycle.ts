/** What the engine needs from any store besides its data: which engine, readiness, shutdown. */

/** The part of a store the engine manages. */
export interface StoreLifecycle {
  readonly engine: "sqlite" | "postgres";
  /** Readiness probe: resolves when the database answers. */
  check(): Promise<void>;
  close(): Promise<void>;
}
