/**
 * A small Prometheus registry (text exposition format 0.0.4): counters, gauges and histograms with labels.
 * Written here rather than taken from a package: the product needs these three kinds and nothing else.
 */

type Labels = Record<string, string>;

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels: Labels) => {
  const entries = Object.entries(labels);
  return entries.length ? `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : '';
};
/**
 * A series' key: its labels in name order (the same series whatever order a caller names them in). Built by
 * concatenation: it runs twice on every HTTP answer, where entries + sort + JSON cost a few microseconds.
 */
const keyOf = (labels: Labels) => {
  const names = Object.keys(labels);
  // Sorted so that the order labels were written in makes no other series; most callers already write them
  // in order, and a sort on every answer (twice) showed in profiles.
  for (let i = 1; i < names.length; i++)
    if (names[i - 1]! > names[i]!) {
      names.sort();
      break;
    }
  let key = '';
  for (const name of names) key += `${name}\u0000${labels[name]}\u0001`;
  return key;
};

interface Metric {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  lines(): string[];
}

export class Counter implements Metric {
  readonly type = 'counter';
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = keyOf(labels);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { labels, value: by });
  }
  lines(): string[] {
    return [...this.values.values()].map((e) => `${this.name}${labelText(e.labels)} ${e.value}`);
  }
}

/** A gauge read when scraped (`collect`), or set as things change. */
export class Gauge implements Metric {
  readonly type = 'gauge';
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly collect?: () => Promise<Array<{ labels: Labels; value: number }>>,
  ) {}
  set(labels: Labels, value: number): void {
    this.values.set(keyOf(labels), { labels, value });
  }
  async refresh(): Promise<void> {
    if (!this.collect) return;
    const fresh = await this.collect();
    this.values.clear();
    for (const { labels, value } of fresh) this.set(labels, value);
  }
  lines(): string[] {
    return [...this.values.values()].map((e) => `${this.name}${labelText(e.labels)} ${e.value}`);
  }
}

export class Histogram implements Metric {
  readonly type = 'histogram';
  private readonly series = new Map<
    string,
    { labels: Labels; counts: number[]; sum: number; count: number }
  >();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}
  observe(labels: Labels, value: number): void {
    const key = keyOf(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= (this.buckets[i] as number)) s.counts[i]! += 1;
    s.sum += value;
    s.count += 1;
  }
  lines(): string[] {
    const out: string[] = [];
    for (const s of this.series.values()) {
      for (const [i, le] of this.buckets.entries())
        out.push(`${this.name}_bucket${labelText({ ...s.labels, le: String(le) })} ${s.counts[i]}`);
      out.push(`${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
      out.push(`${this.name}_sum${labelText(s.labels)} ${s.sum}`);
      out.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return out;
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];
  register<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }
  /** The exposition text; gauges with a collector are read now (one failing leaves its old values). */
  async render(): Promise<string> {
    await Promise.all(
      this.metrics.map((m) => (m instanceof Gauge ? m.refresh().catch(() => undefined) : undefined)),
    );
    const out: string[] = [];
    for (const m of this.metrics) {
      out.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} ${m.type}`, ...m.lines());
    }
    return `${out.join('\n')}\n`;
  }
}
