import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { ENGINE_FORMATS } from "./formats.js";

const ajv = new Ajv2020({ strict: false, coerceTypes: "array", allErrors: true });
addFormats.default(ajv, ENGINE_FORMATS);

const valid = (format: string, value: string) => ajv.validate({ type: "string", format }, value);

describe("formats in full mode", () => {
  it("date: a day of the calendar", () => {
    expect(valid("date", "2024-02-29")).toBe(true);
    expect(valid("date", "2023-02-30")).toBe(false);
    expect(valid("date", "2023-02-29")).toBe(false);
    expect(valid("date", "2023-13-01")).toBe(false);
    expect(valid("date", "2023-1-01")).toBe(false);
  });
  it("date in an array of a body", () => {
    const schema = { type: "array", items: { type: "string", format: "date" } };
    expect(ajv.validate(schema, ["2023-01-31", "2023-12-01"])).toBe(true);
    expect(ajv.validate(schema, ["2023-01-31", "2023-13-01"])).toBe(false);
  });
  it("time and date-time: real hours, minutes and an offset", () => {
    expect(valid("time", "23:59:59Z")).toBe(true);
    expect(valid("time", "12:00:00+02:00")).toBe(true);
    expect(valid("time", "24:00:00Z")).toBe(false);
    expect(valid("time", "12:60:00Z")).toBe(false);
    expect(valid("time", "12:00:00")).toBe(false);
    expect(valid("date-time", "2023-01-01T10:00:00Z")).toBe(true);
    expect(valid("date-time", "2023-02-30T10:00:00Z")).toBe(false);
  });
  it("uuid, email, uri, ipv4, ipv6, hostname", () => {
    expect(valid("uuid", "3fa85f64-5717-4562-b3fc-2c963f66afa6")).toBe(true);
    expect(valid("uuid", "3fa85f64-5717-4562-b3fc-2c963f66afa")).toBe(false);
    expect(valid("email", "ann@example.com")).toBe(true);
    expect(valid("email", "ann@")).toBe(false);
    expect(valid("uri", "https://example.com/a?b=c")).toBe(true);
    expect(valid("uri", "example.com/a")).toBe(false);
    expect(valid("ipv4", "192.168.0.1")).toBe(true);
    expect(valid("ipv4", "256.1.1.1")).toBe(false);
    expect(valid("ipv6", "2001:db8::1")).toBe(true);
    expect(valid("ipv6", "2001:db8:::1")).toBe(false);
    expect(valid("hostname", "a.example.com")).toBe(true);
    expect(valid("hostname", "-a.example.com")).toBe(false);
  });
});
