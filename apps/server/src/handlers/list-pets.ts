/** listPets: one page in ascending id order, with a `next` link unless it is the last. */
import type { Pet } from "@animal-store/api-types";
import { JsonText } from "@animal-store/openapi-engine";
import { nextCursor, nextLink, pageStart, readPage } from "../paging/keyset-paging.js";
import { textPageItems } from "../store/json-pages.js";
import type { HandlerFactory } from "./types.js";

/**
 * 400 on a bad cursor (the paging step names which). Where the store writes pages as JSON text
 * (SQLite) and the served contract's items are ones it writes exactly (json-pages.ts), the page
 * is answered as that text: no object per pet, nothing serialized again. Otherwise, and for a
 * page holding a value the text would not carry exactly, the pets are read as objects.
 */
export const listPets: HandlerFactory<"listPets"> = (store, spec) => {
  const items = textPageItems(spec, "listPets");
  // Refused by a store not reachable yet (the engine's prepared-later store refuses every call
  // until it is): the first page prepares what it needs instead.
  if (items !== undefined) store.prepareTextPages?.(items).catch(() => {});
  return async ({ query, reply }) => {
    const { limit, cursor, ...filter } = query;
    const start = pageStart({ cursor, filter });
    if (!start.ok) return reply(400, start.error);
    const text =
      items === undefined || store.listPetsText === undefined
        ? undefined
        : await store.listPetsText({ limit, status: filter.status, afterId: start.afterId }, items);
    let next: string | undefined;
    let body: Pet[] | JsonText<Pet[]>;
    if (text !== undefined) {
      body = new JsonText<Pet[]>(text.text);
      next = text.more ? nextCursor(start, text.lastId as number) : undefined;
    } else {
      const page = await readPage({ limit, cursor, filter }, ({ limit, afterId }) =>
        store.listPets({ limit, status: filter.status, afterId }),
      );
      if (!page.ok) return reply(400, page.error);
      body = page.items;
      next = page.next;
    }
    if (next === undefined) return reply(200, body);
    // limit first, the filter, the cursor last: the same link whatever order the request used.
    const link = { limit, ...filter, cursor: next } satisfies typeof query;
    return reply(200, body, { Link: nextLink(link) });
  };
};
