/** listPets: one page in ascending id order, with a `next` link unless it is the last. */
import { nextLink, readPage } from "../paging/page.js";
import type { HandlerFactory } from "./types.js";

/** 400 on a bad cursor (the paging step names which). */
export const listPets: HandlerFactory<"listPets"> =
  (store) =>
  async ({ query, reply }) => {
    const { limit, cursor, ...filter } = query;
    const page = await readPage({ limit, cursor, filter }, ({ limit, afterId }) =>
      store.listPets({ limit, status: filter.status, afterId }),
    );
    if (!page.ok) return reply(400, page.error);
    if (page.next === undefined) return reply(200, page.items);
    // limit first, the filter, the cursor last: the same link whatever order the request used.
    const next = { limit, ...filter, cursor: page.next } satisfies typeof query;
    return reply(200, page.items, { Link: nextLink(next) });
  };
