/**
 * Prometheus text as a test reads it: each sample by its name and labels, so a suite can compare
 * counters before and after the requests it sent.
 */

/** Samples of one scrape, keyed `name{label="value",...}` with labels in the order written. */
export type Scrape = Map<string, number>;

/** Fetches and parses `url` (a /metrics endpoint). */
export async function scrape(url: string): Promise<{ samples: Scrape; text: string }> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  const text = await res.text();
  const samples: Scrape = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return { samples, text };
}

/** The sample `name` with exactly `labels` (in any order), 0 when absent. */
export function sample(samples: Scrape, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort();
  for (const [key, value] of samples) {
    const brace = key.indexOf("{");
    const keyName = brace === -1 ? key : key.slice(0, brace);
    if (keyName !== name) continue;
    const have =
      brace === -1
        ? []
        : key
            .slice(brace + 1, -1)
            .split(",")
            .sort();
    if (have.length === wanted.length && have.every((label, i) => label === wanted[i]))
      return value;
  }
  return 0;
}
