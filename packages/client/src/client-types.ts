import type { paths } from "@animal-store/api-types";
import type { Client, FetchResponse, MaybeOptionalInit } from "openapi-fetch";
import type { HttpMethod, PathsWithMethod, RequiredKeysOf } from "openapi-typescript-helpers";
import type { SuccessData } from "./api-error.js";
import type { CallOptions } from "./call-options.js";
import type {
  DeprecatedCalls,
  DeprecatedPages,
  DeprecatedRequests,
} from "./generated/operations.js";
import type { Page } from "./pages.js";
import type { RateLimitInfo } from "./rate-limit.js";
import type { ResponseMeta } from "./response-meta.js";

type Media = "application/json";

/** openapi-fetch's init, plus the typed call options (`timeoutMs`, `deadlineMs`, `onRetry`). */
export type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & CallOptions & { [key: string]: unknown })?]
    : [Init & CallOptions & { [key: string]: unknown }];

/** A call's result: openapi-fetch's `{ data }` or `{ error }` with `response`, plus `meta`. */
export type CallResult<Operation, Init> = (Operation extends Record<string | number, unknown>
  ? FetchResponse<Operation, Init, Media>
  : never) & {
  /** What this response said about itself: operation, request id, rate limit, deprecation. */
  meta: ResponseMeta;
};

/** One HTTP method of the client, typed by the spec's paths. */
export type ClientMethod<Method extends HttpMethod> = <
  Path extends PathsWithMethod<paths, Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<CallResult<paths[Path][Method], Init>>;

/** The method-first form, `client.request("get", "/pets", init)`. */
export type ClientRequestMethod = <
  Method extends HttpMethod,
  Path extends PathsWithMethod<paths, Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  method: Method,
  url: Path,
  ...init: InitParam<Init>
) => Promise<CallResult<paths[Path][Method], Init>>;

/**
 * Every page of a GET list, first to last, following each response's `Link: <...>; rel="next"`;
 * the init (parameters, headers, call options, signal) applies to every page's call.
 */
export type ClientPages = <
  Path extends PathsWithMethod<paths, "get">,
  Init extends MaybeOptionalInit<paths[Path], "get">,
>(
  url: Path,
  ...init: InitParam<Init>
) => AsyncGenerator<Page<SuccessData<CallResult<paths[Path]["get"], Init>>>, void, undefined>;

/**
 * One method of the client: the deprecated operations' own signatures (generated, each marked
 * `@deprecated` with its sunset and successor) in front of the generic one, so TypeScript flags
 * a call of a deprecated operation and editors strike it through.
 */
export type ClientMethodWithDeprecations<Method extends HttpMethod> =
  (Method extends keyof DeprecatedCalls ? DeprecatedCalls[Method] : unknown) & ClientMethod<Method>;

/** The openapi-fetch client typed by the spec, with call options, `meta` and the latest limits. */
export type AnimalStoreClient = Pick<Client<paths, Media>, "use" | "eject"> & {
  GET: ClientMethodWithDeprecations<"get">;
  PUT: ClientMethodWithDeprecations<"put">;
  POST: ClientMethodWithDeprecations<"post">;
  DELETE: ClientMethodWithDeprecations<"delete">;
  OPTIONS: ClientMethodWithDeprecations<"options">;
  HEAD: ClientMethodWithDeprecations<"head">;
  PATCH: ClientMethodWithDeprecations<"patch">;
  TRACE: ClientMethodWithDeprecations<"trace">;
  request: DeprecatedRequests & ClientRequestMethod;
  /** Every page of a list, following `next` links (pacing, timeouts and retries per page). */
  pages: DeprecatedPages & ClientPages;
  /**
   * The window of the latest response that described one (`RateLimit` and `RateLimit-Policy`, or
   * `X-RateLimit-*`); undefined before the first.
   */
  readonly rateLimit: RateLimitInfo | undefined;
};

/**
 * The same client typed as openapi-fetch's own `Client`, for libraries built on that type
 * (openapi-react-query's `createQueryHooks`). Its calls still get deadlines, pacing, retries and
 * `meta`; only their call options and `meta` are no longer typed on that view.
 */
export function asOpenapiFetchClient(client: AnimalStoreClient): Client<paths, Media> {
  return client as unknown as Client<paths, Media>;
}
