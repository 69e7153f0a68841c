/** The shape of bench/results/latest.json: everything one `pnpm bench` run measured. */
import type { ClientFigures, ClientSize } from "./client-bench.js";
import type { DevFigures } from "./dev-bench.js";
import type { MachineInfo, Steadiness } from "./machine.js";
import type { MockFigures } from "./mock-bench.js";
import type { PagingFigures } from "./paging-bench.js";
import type { PairFigures } from "./pairs.js";
import type { VariantFigures } from "./server-bench.js";

export type Section<T> = { ok: true; value: T } | { ok: false; reason: string };

/** One target and whether this run met it (null: not measured). */
export interface Target {
  label: string;
  goal: string;
  actual: string;
  met: boolean | null;
}

/** The run's shape: rounds of the server section, and the pairs' launches and runs. */
export interface Settings {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  threads: number;
  pairLaunches: number;
  pairRunsPerLaunch: number;
  pairSeconds: number;
}

export interface BenchResults {
  startedAt: string;
  durationSeconds: number;
  machine: MachineInfo;
  loadAtEnd: number;
  steadiness: { start: Steadiness; end: Steadiness };
  settings: Settings;
  /** Anything that makes this run differ from a full one (a variant left out, and why). */
  notes: string[];
  server: Section<VariantFigures[]>;
  pairs: Section<PairFigures[]>;
  paging: Section<PagingFigures>;
  client: Section<ClientFigures>;
  clientSize: Section<ClientSize>;
  dev: Section<DevFigures>;
  mock: Section<MockFigures>;
  targets: Target[];
}
