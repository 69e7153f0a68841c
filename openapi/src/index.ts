/**
 * @animal-store/openapi: the contract's one reader. Loading the bundle, the operation list (with
 * the one list of HTTP methods), `$ref` resolution, path templates, documented responses, the
 * security schemes, the documented error codes, example requests, the stored resources the
 * examples show, the extensions that carry behaviour and the statuses the server can send. The
 * engine, the mock, the generators and the tests all read the contract through these functions
 * rather than walking it themselves.
 */
export {
  deref,
  HTTP_METHODS,
  type HttpMethod,
  isJsonObject,
  type JsonObject,
  type OpenApiDocument,
  type SecurityRequirement,
  withoutExtensions,
} from "./document.js";
export { type ExampleRequest, exampleRequest, firstExample } from "./example-requests.js";
export {
  basePathOf,
  DEFAULT_REQUEST_BODY_LIMIT_BYTES,
  DEFAULT_REQUEST_TARGET_LIMIT_BYTES,
  declaredRateLimitPolicy,
  deprecationHeaders,
  type OperationDeprecation,
  operationDeprecation,
  type PlanLimits,
  type RateLimitPolicy,
  rateLimitPolicy,
  requestBodyLimitBytes,
  requestTargetLimitBytes,
  serverBasePaths,
} from "./extensions.js";
export { bundledSpecPath, type LoadedSpec, loadBundledSpec, readSpec } from "./load.js";
export { type OperationPagination, operationPagination } from "./pagination.js";
export { type PathTemplatePattern, pathTemplatePattern } from "./path-template.js";
export {
  type DocumentedHeader,
  type DocumentedResponse,
  documentedHeaderNames,
  documentedResponses,
  responseForStatus,
} from "./responses.js";
export {
  declaresStatus,
  SERVER_STATUSES,
  type ServerStatus,
  undeclaredStatuses,
} from "./server-statuses.js";
export { place, type SourceLines, type SpecPath, sourceLines } from "./source-lines.js";
export { connectionErrorCodes, documentedErrorCodes } from "./spec-error-codes.js";
export {
  allowsAnonymous,
  negotiatesContent,
  operationById,
  parameterDefault,
  type SpecOperation,
  specOperations,
} from "./spec-operations.js";
export { bearerRealm, requestHeaderNames, securitySchemes } from "./spec-security.js";
export {
  follow,
  jsonMedia,
  type Located,
  type OperationResponse,
  operationPath,
  operationResponses,
  type ResponseExample,
  responseExamples,
  texts,
} from "./spec-walk.js";
export { type StoredResource, storedResources } from "./stored-resources.js";
