// @ts-check
// The mock in either mode, from the launcher's options: Prism on the spec's examples (the
// default), or the stateful mock on the server's engine. Each mode's modules are imported only
// when it is asked for, so neither pays for the other's start-up.

/**
 * @typedef {object} MockOptions
 * @property {string} host
 * @property {number} port 0 picks a free port
 * @property {boolean} [stateful] the server's engine over data in memory instead of Prism
 * @property {boolean} dynamic Prism: generate data from the schemas instead of the named examples
 * @property {string} [seed] Prism: makes dynamic data repeatable
 * @property {keyof typeof import("./prism-log.mjs").LOG_LEVELS} logLevel log lines below this level are not shown
 * @property {string} [specPath] defaults to the bundled contract
 * @property {NodeJS.WritableStream} [logOut] Prism: where its log lines go (stderr)
 * @property {string} [plan] stateful: the plan every key is counted on (default the spec's anonymous plan)
 * @property {number} [perMinute] stateful: every key's own limits (a custom plan needs them)
 * @property {number} [perDay]
 * @property {boolean} [anyContract] stateful: the any-contract application whatever the contract
 * @property {number} [seedCount] stateful: items synthesized per stored resource on top of the examples
 * @property {number} [now] stateful: ms since the epoch the clock starts at (time flows on from there)
 * @property {() => number} [clock] stateful, in-process suites: the clock itself
 */

/**
 * @typedef {object} RunningMock
 * @property {string} origin e.g. http://127.0.0.1:4010
 * @property {string} url the API's base URL, e.g. http://127.0.0.1:4010/v1 (a client's baseUrl)
 * @property {string} [title] Prism: the contract's title (`info.title`), for the launcher's first line
 * @property {string} description what it serves, for the launcher's first line
 * @property {string} [note] Prism: where to point a client and which credentials it accepts
 * @property {string} [resetUrl] stateful: where `POST` puts the seed back
 * @property {() => Promise<void>} reset puts the stateful mock's seed back (nothing to do for Prism)
 * @property {() => Promise<void>} close
 */

/** Starts the mock `options` asks for; resolves once it listens. */
export async function startMock(/** @type {MockOptions} */ options) {
  if (options.stateful) {
    const { startStatefulMock } = await import("./stateful/stateful-mock.mjs");
    return startStatefulMock(options);
  }
  const { startPrismMock } = await import("./mock-server.mjs");
  return startPrismMock(options);
}
