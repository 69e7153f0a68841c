import type { PetStatus } from "@animal-store/client";

/** An animal's status as a coloured badge; a pet created without one says so. */
export function StatusBadge({ status }: { status: PetStatus | undefined }) {
  return status ? (
    <span className={`badge status-${status}`}>{status}</span>
  ) : (
    <span className="badge status-none">no status</span>
  );
}
