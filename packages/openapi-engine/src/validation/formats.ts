/**
 * The formats the validator checks: every format ajv-formats knows, in its full mode (a `date`
 * is a day of the calendar, so `2023-02-30` is refused; `time` and `date-time` need real hours
 * and an offset; `uri`, `email` and the rest by their RFCs). ajv-formats' fast mode, the
 * validator's default, checks only the shape (`2023-02-30` passed as a date). compile.ts gives
 * this to express-openapi-validator through its public `ajvFormats` option, so parameters and
 * bodies are checked by the same formats.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#data-type-format
 * @see https://spec.openapis.org/registry/format/
 * @see https://ajv.js.org/packages/ajv-formats.html
 */
import type { FormatOptions } from "ajv-formats";

/** Every format ajv-formats knows, each checked in full. */
export const ENGINE_FORMATS: FormatOptions = { mode: "full" };
