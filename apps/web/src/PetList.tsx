import { limitParameter, petStatuses } from "virtual:contract";
import type { PetStatus } from "@animal-store/client";
import { useState } from "react";
import { ErrorNotice } from "./ErrorNotice.js";
import { petHash } from "./hash-route.js";
import { usePetPages } from "./pet-pages.js";
import { usePauseCountdown } from "./rate-limit-pause.js";
import { StatusBadge } from "./StatusBadge.js";

/** Page sizes offered: around the spec's default, up to its maximum. */
const LIMIT_CHOICES = [
  ...new Set([
    Math.round(limitParameter.default / 2),
    limitParameter.default,
    Math.round(limitParameter.maximum / 2),
    limitParameter.maximum,
  ]),
]
  .filter((n) => n >= limitParameter.minimum && n <= limitParameter.maximum)
  .sort((a, b) => a - b);

/** The animals, filtered by status, `limit` per page, more pages on request (listPets). */
export function PetList({ selectedId }: { selectedId: number | null }) {
  const [status, setStatus] = useState<PetStatus | null>(null);
  const [limit, setLimit] = useState(limitParameter.default);
  const pause = usePauseCountdown();
  const query = { limit, ...(status ? { status } : {}) };
  const pets = usePetPages(query, !pause.active);
  const pages = pets.data?.pages ?? [];
  const list = pages.flatMap((page) => page.pets);

  return (
    <section className="card list-card" aria-labelledby="list-title">
      <div className="card-head">
        <h2 id="list-title">Animals</h2>
        <button
          type="button"
          className="button ghost"
          onClick={() => void pets.refetch()}
          disabled={pause.active || pets.isFetching}
        >
          {pets.isFetching ? "Loading…" : "Refresh"}
        </button>
      </div>
      <div className="toolbar">
        <fieldset className="segmented" aria-label="Filter by status">
          {[null, ...petStatuses].map((value) => (
            <button
              key={value ?? "all"}
              type="button"
              aria-pressed={status === value}
              onClick={() => setStatus(value)}
            >
              {value ?? "all"}
            </button>
          ))}
        </fieldset>
        <label className="inline-field">
          <span>Per page</span>
          <select value={limit} onChange={(event) => setLimit(Number(event.target.value))}>
            {LIMIT_CHOICES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNotice error={pets.error} />
      {pets.isPending && !pets.isError ? (
        <p className="muted empty">Loading animals…</p>
      ) : list.length === 0 && !pets.isError ? (
        <p className="muted empty">No animal {status ? `is ${status}` : "yet"}.</p>
      ) : (
        <ul className="pet-list" aria-busy={pets.isFetching}>
          {pages
            .flatMap((page, n) => page.pets.map((pet) => ({ pet, key: `${n}:${pet.id}` })))
            .map(({ pet, key }) => (
              <li key={key}>
                <a
                  href={petHash(pet.id)}
                  className="pet-row"
                  aria-current={pet.id === selectedId ? "true" : undefined}
                >
                  <span className="pet-id">#{pet.id}</span>
                  <span className="pet-name">{pet.name}</span>
                  <span className="pet-category">category {pet.categoryId}</span>
                  <StatusBadge status={pet.status} />
                </a>
              </li>
            ))}
        </ul>
      )}
      {pets.hasNextPage && (
        <button
          type="button"
          className="button ghost load-more"
          onClick={() => void pets.fetchNextPage()}
          disabled={pause.active || pets.isFetching}
        >
          {pets.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
      <p className="list-foot muted">
        {list.length} shown · {pages.length} {pages.length === 1 ? "page" : "pages"} of at most{" "}
        {limit}
        {status ? ` · ${status} only` : ""}
        {pages.length > 0 && !pets.hasNextPage ? " · the end of the list" : ""}
      </p>
    </section>
  );
}
