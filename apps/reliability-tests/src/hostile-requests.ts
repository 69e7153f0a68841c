/**
 * Hand-picked hostile requests that generators reach rarely or not at all: raw bytes, broken
 * percent-escapes, deep JSON, prototype-pollution keys, wrong content types, odd methods. Each
 * says which status it must get, or `documented` when any status the contract documents for the
 * route will do (the contract leaves the choice open) as long as it is not a 5xx.
 */
import { basePath, otherBasePath } from "@animal-store/test-support/spec-values";
import type { FuzzContract } from "./fuzz-contract.js";
import type { RawRequest } from "./http-client.js";

/** A hostile request and what it must get. */
export interface HostileCase {
  name: string;
  request: RawRequest;
  /** The operation whose responses document the answer; null for paths outside the contract. */
  operationId: "listPets" | "createPet" | "getPet" | null;
  expect: { status: number; code?: string } | "documented";
}

const json = { "content-type": "application/json" };
const pet = '"name":"Rex","categoryId":1';

/** Limits of the contract the table probes at their edges (read from the spec by the caller). */
export interface ContractEdges {
  /** info.x-request-body-limit-bytes */
  bodyLimit: number;
  /** PetName.maxLength, in code points as JSON Schema counts them. */
  nameMaxLength: number;
}

/** The edges of `contract` the table probes: its body limit and PetName's longest. */
export function contractEdges(contract: FuzzContract): ContractEdges {
  const petName = (contract.doc.components.schemas as Record<string, { maxLength: number }>)
    .PetName;
  return { bodyLimit: contract.bodyLimitBytes, nameMaxLength: petName?.maxLength ?? 0 };
}

/** Builds the table at the given edges of the contract. */
export function hostileCases({ bodyLimit, nameMaxLength }: ContractEdges): HostileCase[] {
  const post = (
    name: string,
    body: string | Buffer,
    headers: Record<string, string>,
    expect: HostileCase["expect"],
  ): HostileCase => ({
    name,
    request: { method: "POST", target: `${basePath}/pets`, headers, body },
    operationId: "createPet",
    expect,
  });
  const get = (
    name: string,
    target: string,
    operationId: HostileCase["operationId"],
    expect: HostileCase["expect"],
  ): HostileCase => ({
    name,
    request: { method: "GET", target },
    operationId,
    expect,
  });
  const bad = { status: 400, code: "validation_failed" };
  return [
    post("__proto__ key in the body", `{${pet},"__proto__":{"polluted":true}}`, json, bad),
    post(
      "constructor.prototype in the body",
      `{${pet},"constructor":{"prototype":{"polluted":true}}}`,
      json,
      bad,
    ),
    post("__proto__ as the only body", '{"__proto__":{"name":"Rex","categoryId":1}}', json, bad),
    post("deep nested arrays", `${"[".repeat(5000)}${"]".repeat(5000)}`, json, bad),
    post("deep nested objects", `${'{"a":'.repeat(2000)}1${"}".repeat(2000)}`, json, bad),
    post(
      "deep value inside a valid pet",
      `{${pet},"status":${"[".repeat(3000)}${"]".repeat(3000)}}`,
      json,
      bad,
    ),
    post(
      "body over the limit",
      JSON.stringify({ name: "x".repeat(bodyLimit), categoryId: 1 }),
      json,
      { status: 413, code: "payload_too_large" },
    ),
    post(
      "text/plain body",
      `{${pet}}`,
      { "content-type": "text/plain" },
      { status: 415, code: "unsupported_media_type" },
    ),
    post(
      "form body",
      "name=Rex&categoryId=1",
      { "content-type": "application/x-www-form-urlencoded" },
      { status: 415, code: "unsupported_media_type" },
    ),
    post("no content type", `{${pet}}`, {}, { status: 415, code: "unsupported_media_type" }),
    post(
      "json with utf-16 charset",
      `{${pet}}`,
      { "content-type": "application/json; charset=utf-16" },
      "documented",
    ),
    post("not JSON", "{name: Rex}", json, { status: 400, code: "malformed_json" }),
    post("truncated JSON", `{${pet}`, json, { status: 400, code: "malformed_json" }),
    post("invalid UTF-8 bytes", Buffer.from([0x7b, 0x22, 0x6e, 0xff, 0xfe, 0x22, 0x7d]), json, {
      status: 400,
    }),
    post("JSON null", "null", json, bad),
    post("JSON string", '"Rex"', json, bad),
    post("empty JSON object", "{}", json, bad),
    post("id beyond 2^53", `{${pet},"id":9007199254740993}`, json, bad),
    post("categoryId beyond 2^53", '{"name":"Rex","categoryId":9007199254740993}', json, bad),
    post("categoryId 1e400", '{"name":"Rex","categoryId":1e400}', json, bad),
    post("negative categoryId", '{"name":"Rex","categoryId":-9223372036854775808}', json, bad),
    post("NUL in name", '{"name":"Re\\u0000x","categoryId":1}', json, bad),
    post("escape in name", '{"name":"\\u001b[31mRex","categoryId":1}', json, bad),
    post("duplicate keys", '{"name":"Rex","categoryId":1,"categoryId":0}', json, "documented"),
    // Lengths count code points: an emoji is one character but two UTF-16 units.
    post(
      "longest name in astral characters",
      JSON.stringify({ name: "🐶".repeat(nameMaxLength), categoryId: 1 }),
      json,
      { status: 201 },
    ),
    post(
      "name one astral character too long",
      JSON.stringify({ name: "🐶".repeat(nameMaxLength + 1), categoryId: 1 }),
      json,
      bad,
    ),
    post(
      "thousands of unknown keys",
      `{${pet},${Array.from({ length: 1500 }, (_, i) => `"k${i}":0`).join(",")}}`,
      json,
      bad,
    ),
    get("petId beyond 2^53", `${basePath}/pets/9007199254740993`, "getPet", bad),
    get("petId 20 digits", `${basePath}/pets/99999999999999999999`, "getPet", bad),
    get("negative petId", `${basePath}/pets/-1`, "getPet", bad),
    get("petId zero", `${basePath}/pets/0`, "getPet", bad),
    get("petId fraction", `${basePath}/pets/1.5`, "getPet", bad),
    get("petId with NUL", `${basePath}/pets/%00`, "getPet", bad),
    get("petId broken escape", `${basePath}/pets/%E0%A4%A`, "getPet", { status: 400 }),
    get("petId invalid UTF-8 escape", `${basePath}/pets/%FF`, "getPet", { status: 400 }),
    get("petId unicode digits", `${basePath}/pets/${encodeURIComponent("١٢٣")}`, "getPet", bad),
    get("petId emoji", `${basePath}/pets/${encodeURIComponent("🐶")}`, "getPet", bad),
    get("limit duplicated", `${basePath}/pets?limit=5&limit=6`, "listPets", bad),
    get("status duplicated", `${basePath}/pets?status=available&status=sold`, "listPets", bad),
    get("limit bracket array", `${basePath}/pets?limit[]=5`, "listPets", bad),
    get("limit 1e400", `${basePath}/pets?limit=1e400`, "listPets", bad),
    get("limit Infinity", `${basePath}/pets?limit=Infinity`, "listPets", bad),
    get("limit -Infinity", `${basePath}/pets?limit=-Infinity`, "listPets", bad),
    get("petId Infinity", `${basePath}/pets/Infinity`, "getPet", bad),
    get("petId 1e400", `${basePath}/pets/1e400`, "getPet", bad),
    get("limit beyond 2^53", `${basePath}/pets?limit=9007199254740993`, "listPets", bad),
    get("limit negative", `${basePath}/pets?limit=-1`, "listPets", bad),
    get("limit broken escape", `${basePath}/pets?limit=%E0%A4%A`, "listPets", "documented"),
    get("status upper case", `${basePath}/pets?status=AVAILABLE`, "listPets", bad),
    get("status with NUL", `${basePath}/pets?status=available%00`, "listPets", bad),
    get("__proto__ query parameter", `${basePath}/pets?__proto__=1`, "listPets", bad),
    get(
      "constructor query parameter",
      `${basePath}/pets?constructor[prototype][polluted]=1`,
      "listPets",
      bad,
    ),
    get("unknown path", `${basePath}/nope`, null, { status: 404, code: "not_found" }),
    get("unknown version", `${otherBasePath}/pets`, null, { status: 404, code: "not_found" }),
    get(
      "a thousand query parameters",
      `${basePath}/pets?${Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join("&")}`,
      "listPets",
      bad,
    ),
    get(
      "encoded path traversal",
      `${basePath}/pets/..%2F..%2Fetc%2Fpasswd`,
      "getPet",
      "documented",
    ),
    get("very long path", `${basePath}/${"a".repeat(4000)}`, null, {
      status: 404,
      code: "not_found",
    }),
    {
      name: "PUT on /pets",
      request: { method: "PUT", target: `${basePath}/pets`, headers: json, body: `{${pet}}` },
      operationId: null,
      expect: { status: 405, code: "method_not_allowed" },
    },
    {
      name: "DELETE on /pets/1",
      request: { method: "DELETE", target: `${basePath}/pets/1` },
      operationId: null,
      expect: { status: 405, code: "method_not_allowed" },
    },
  ];
}
