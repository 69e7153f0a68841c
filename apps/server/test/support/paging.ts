/**
 * Paging as the contract describes it, for the suites: the paged operation's facts read from the
 * bundled spec (its cursor parameter, `limit`'s bounds, the status values, the codes of its bad
 * cursor examples, the `next` link's pattern), and a client that follows `Link: <...>; rel="next"`
 * the way RFC 8288 says (the target resolved against the request's URL).
 */
import type { Pet } from "@animal-store/api-types";
import { deref, type JsonObject, operationPagination } from "@animal-store/openapi";
import { linksBesidesNext, nextLinkTarget } from "@animal-store/test-support/links";
import { operation, standingLink } from "@animal-store/test-support/spec-values";
import { expect } from "vitest";
import { contract } from "./contract.js";

const list = contract.operations.find((op) => operationPagination(contract.spec, op));
if (!list) throw new Error("the contract has no operation with x-pagination");
const pagination = operationPagination(contract.spec, list) as NonNullable<
  ReturnType<typeof operationPagination>
>;
const parameter = (name: string) =>
  deref<JsonObject>(
    contract.spec,
    list.parameters.find((p) => p.name === name),
  );
const schemaOf = (name: string) => deref<JsonObject>(contract.spec, parameter(name).schema);
const ok = deref<JsonObject>(contract.spec, (list.operation.responses as JsonObject)["200"]);
const limit = schemaOf("limit");
const linkHeader = deref<JsonObject>(contract.spec, (ok.headers as JsonObject).Link);

/** What the suites need to know about paging, all from the spec. */
export const paging = {
  /** The paged operation's path relative to the base path (`/pets`). */
  path: list.path,
  cursorParameter: pagination.cursorParameter,
  limit: {
    minimum: Number(limit.minimum),
    maximum: Number(limit.maximum),
    default: Number(limit.default),
  },
  /** The `status` filter's values, in spec order. */
  statuses: (schemaOf("status").enum as string[]).slice(),
  /** The codes of the 400 examples for a cursor the service did not issue / made for another filter. */
  codes: pagination.codes,
  /** The `Link` header's schema pattern on the paged operation's 200, when it declares one. */
  linkPattern:
    (linkHeader.schema as JsonObject).pattern === undefined
      ? undefined
      : new RegExp(String((linkHeader.schema as JsonObject).pattern)),
  /**
   * The links every page carries besides `next` (a deprecated list's `successor-version`), as the
   * spec's deprecation gives them; empty for a list that is not deprecated.
   */
  standingLinks: linksBesidesNext(standingLink(operation(list.operationId)) ?? ""),
  /** The cursor parameter's named examples, by name. */
  cursorExamples: Object.fromEntries(
    Object.entries(
      parameter(pagination.cursorParameter).examples as Record<string, JsonObject>,
    ).map(([name, example]) => [name, String(deref<JsonObject>(contract.spec, example).value)]),
  ),
};

/** The target of `Link: <...>; rel="next"`, resolved against `requestUrl`; undefined without one. */
export function nextPageUrl(response: Response, requestUrl: string): string | undefined {
  const target = nextLinkTarget(response.headers.get("link"));
  return target === undefined ? undefined : new URL(target, requestUrl).href;
}

/** One page as a suite sees it: its URL, status, pets and the next page's URL. */
export interface SeenPage {
  url: string;
  status: number;
  pets: Pet[];
  next: string | undefined;
}

/** Fetches one page (`fetchPage` adds the key), checking the answer is a 200 with a Pets body. */
export async function readPage(
  fetchPage: (url: string) => Promise<Response>,
  url: string,
): Promise<SeenPage> {
  const response = await fetchPage(url);
  const body = (await response.json()) as Pet[];
  expect(response.status, `${url}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
  return { url, status: response.status, pets: body, next: nextPageUrl(response, url) };
}

/** Follows `next` from `firstUrl` to the last page; `beforeEach(n)` runs before page n (0 first). */
export async function followNext(
  fetchPage: (url: string) => Promise<Response>,
  firstUrl: string,
  beforeEach: (n: number) => Promise<void> = async () => {},
): Promise<SeenPage[]> {
  const pages: SeenPage[] = [];
  let url: string | undefined = firstUrl;
  while (url !== undefined) {
    await beforeEach(pages.length);
    const page = await readPage(fetchPage, url);
    pages.push(page);
    url = page.next;
    // A server that links back to a page already read would loop forever.
    expect(pages.some((seen) => seen.url === url)).toBe(false);
  }
  return pages;
}

/** Ids of every pet on the pages, in the order they came. */
export function idsOf(pages: SeenPage[]): number[] {
  return pages.flatMap((page) => page.pets.map((pet) => pet.id));
}
