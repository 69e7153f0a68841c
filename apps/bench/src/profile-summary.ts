/**
 * Reads a V8 .cpuprofile (`node --cpu-prof`) and says where the time went: self time per function
 * and self and inclusive time per package: the views that point at what a request could stop doing.
 * Inclusive time of a middleware includes whatever it calls through `next()`, so self time per
 * module is the fairer account of what each piece costs.
 */

/** The parts of a .cpuprofile this summary reads. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

/** A share of the sampled time. */
export interface Share {
  name: string;
  percent: number;
}

/** "express@5.3.0", "node:_http_outgoing" or "server/handlers" for a script URL; null for none. */
export function moduleOf(url: string): string | null {
  const pkg = /node_modules\/\.pnpm\/(?:@[^+/]+\+)?([^/]+?)(?:_[^/]*)?\/node_modules/.exec(url);
  if (pkg?.[1]) return pkg[1];
  const ours = /\/(apps|packages)\/([^/]+)\/dist\/([^/.]+)/.exec(url);
  if (ours) return `${ours[2]}/${ours[3]}`;
  if (url.startsWith("node:")) return url;
  return null;
}

function functionLabel(frame: CpuProfile["nodes"][number]["callFrame"]): string {
  const where = frame.url ? ` ${moduleOf(frame.url) ?? frame.url}:${frame.lineNumber + 1}` : "";
  return `${frame.functionName || "(anonymous)"}${where}`;
}

function top(totals: Map<string, number>, all: number, count: number): Share[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, time]) => ({ name, percent: (100 * time) / all }));
}

/** Self time per function and inclusive time per module, the `count` largest of each. */
export function summariseProfile(
  profile: CpuProfile,
  count = 25,
): { self: Share[]; modules: Share[]; moduleSelf: Share[] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const timeById = new Map<number, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    timeById.set(id, (timeById.get(id) ?? 0) + dt);
    all += dt;
  });
  const self = new Map<string, number>();
  const modules = new Map<string, number>();
  const moduleSelf = new Map<string, number>();
  for (const [id, time] of timeById) {
    const node = byId.get(id);
    if (node === undefined) continue;
    const label = functionLabel(node.callFrame);
    self.set(label, (self.get(label) ?? 0) + time);
    // Native frames (no URL: syscalls, GC) count toward their nearest script caller's module.
    let owner: string | null = null;
    for (let at: number | undefined = id; at !== undefined && owner === null; at = parent.get(at)) {
      owner = moduleOf(byId.get(at)?.callFrame.url ?? "");
    }
    const ownerName = owner ?? node.callFrame.functionName ?? "(other)";
    moduleSelf.set(ownerName, (moduleSelf.get(ownerName) ?? 0) + time);
    // Each module counts once per sample however deep it recurses.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = moduleOf(byId.get(at)?.callFrame.url ?? "");
      if (name !== null && !seen.has(name)) {
        seen.add(name);
        modules.set(name, (modules.get(name) ?? 0) + time);
      }
    }
  }
  return {
    self: top(self, all, count),
    modules: top(modules, all, count),
    moduleSelf: top(moduleSelf, all, count),
  };
}
