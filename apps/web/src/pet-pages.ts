/**
 * listPets, page by page, as TanStack Query's infinite query: the first page with the chosen
 * filter and page size, then each next page at the target of the previous page's `Link:
 * <...>; rel="next"`, its query sent as the link wrote it (the cursor stays opaque). The walk
 * stops where the API gives no next link, and also where a link leads elsewhere or back to a
 * page already loaded (Prism's static mock repeats its one example link on every page).
 */
import { nextPageUrl, type Pet, type paths } from "@animal-store/client";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useApi } from "./hooks.js";

/** listPets' query parameters, as the spec types them. */
export type ListQuery = NonNullable<paths["/pets"]["get"]["parameters"]["query"]>;

/** One loaded page: its pets and the next page's query (undefined on the last page). */
export interface PetPage {
  readonly pets: Pet[];
  readonly next: string | undefined;
}

/** The pages of the list for `query`, loaded one at a time (`fetchNextPage`). */
export function usePetPages(query: ListQuery, enabled: boolean) {
  const { api } = useApi();
  return useInfiniteQuery({
    queryKey: ["get", "/pets", { params: { query } }, "pages"],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }): Promise<PetPage> => {
      const { data, error, response } = await api.client.GET("/pets", {
        params: { query },
        signal,
        ...(pageParam === undefined ? {} : { querySerializer: () => pageParam }),
      });
      if (error !== undefined) throw error;
      const next = nextPageUrl(response);
      const here = new URL(response.url);
      const sameList = next && next.origin + next.pathname === here.origin + here.pathname;
      return { pets: data, next: sameList ? next.search.slice(1) : undefined };
    },
    getNextPageParam: (last, _pages, _lastParam, params) =>
      last.next !== undefined && !params.includes(last.next) ? last.next : undefined,
    enabled,
    placeholderData: keepPreviousData,
  });
}
