/**
 * express-openapi-validator's errors as the engine's, converted where validation runs: a 400
 * with its list of failures becomes `validation_failed` naming each place and rule, a 415 (a
 * Content-Type the operation does not take) `unsupported_media_type`. Anything else it raises is
 * left as it is: a bug, answered 500.
 */
import { engineErrors } from "../errors.js";

/** One failure as the validator reports it. */
interface ValidatorFailure {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** "must be <= 100" at "/query/limit" becomes "query/limit must be <= 100". */
export function validatorMessage(failures: ValidatorFailure[]): string {
  return failures
    .map(({ path = "", message = "is invalid", errorCode }) => {
      let where = path.replace(/^[./]+/, "").replace(/\./g, "/");
      // For a missing property the path names the property; the message already does too.
      if (errorCode?.startsWith("required")) where = where.replace(/\/[^/]*$/, "");
      if (message.startsWith("Unknown query parameter")) return message;
      return `${where} ${message}`.trim();
    })
    .join("; ");
}

/** The validator's error `err` as the engine's; anything unrecognised is returned unchanged. */
export function fromValidator(err: unknown): unknown {
  const { status, errors, message } = (err ?? {}) as {
    status?: unknown;
    errors?: unknown;
    message?: unknown;
  };
  const detail = typeof message === "string" ? message : "";
  if (status === 400) {
    return Array.isArray(errors) && errors.length > 0
      ? engineErrors.validationFailed(validatorMessage(errors as ValidatorFailure[]))
      : engineErrors.validationFailed(detail);
  }
  if (status === 415) return engineErrors.unsupportedMediaType(detail);
  return err;
}
