import type { DeprecationNotice, OperationId } from "@animal-store/client";
import { ErrorNotice } from "./ErrorNotice.js";
import { useApi, useValue } from "./hooks.js";
import { usePauseCountdown } from "./rate-limit-pause.js";
import { StatusBadge } from "./StatusBadge.js";

/** The operation this view calls; the type ties the name to the spec's operationIds. */
const OPERATION: OperationId = "getPet";

const day = (date: Date) =>
  date.toLocaleDateString("en-GB", { dateStyle: "long", timeZone: "UTC" });

/** One animal (getPet), with the deprecation notice the client reported for that operation. */
export function PetDetail({ petId }: { petId: number }) {
  const { api } = useApi();
  const pause = usePauseCountdown();
  const pet = api.hooks.useQuery(
    "get",
    "/pets/{petId}",
    { params: { path: { petId } } },
    { enabled: !pause.active },
  );
  const notice = useValue(api.deprecations).find((n) => n.operation === OPERATION);

  return (
    <section className="card detail-card" aria-labelledby="detail-title">
      <div className="card-head">
        <h2 id="detail-title">Animal #{petId}</h2>
        <a className="button ghost" href="#/">
          Close
        </a>
      </div>
      {notice && <Deprecation notice={notice} />}
      <ErrorNotice error={pet.error} />
      {pet.isPending && !pet.isError && <p className="muted">Loading…</p>}
      {pet.data && (
        <dl className="facts">
          <dt>Name</dt>
          <dd className="pet-title">{pet.data.name}</dd>
          <dt>Id</dt>
          <dd>#{pet.data.id}</dd>
          <dt>Category</dt>
          <dd>{pet.data.categoryId}</dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={pet.data.status} />
          </dd>
        </dl>
      )}
    </section>
  );
}

function Deprecation({ notice }: { notice: DeprecationNotice }) {
  const successor = notice.link ? /<([^>]+)>/.exec(notice.link)?.[1] : undefined;
  return (
    <div className="notice warning deprecation" role="note" aria-label="Deprecation notice">
      <strong>Deprecated API.</strong> This view calls <code>{notice.operation}</code>
      {notice.deprecatedAt ? `, deprecated since ${day(notice.deprecatedAt)}` : ""}
      {notice.sunset ? `; it stops working on ${day(notice.sunset)}` : ""}.
      {successor && (
        <>
          {" "}
          Its successor: <code>{successor}</code>.
        </>
      )}
    </div>
  );
}
