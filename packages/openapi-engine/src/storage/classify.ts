/** How a store tells an outage (answered 503) from any other database error (a bug, a 500). */

/** Maps a driver error to what the server should throw (StoreUnavailableError for outages). */
export type ErrorClassifier = (err: unknown) => unknown;

/** Runs `work`, rethrowing its error as `classify` maps it. */
export async function classified<T>(classify: ErrorClassifier, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw classify(err);
  }
}
