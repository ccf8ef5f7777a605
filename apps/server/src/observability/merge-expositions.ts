/**
 * One process's metrics when its threads each keep their own instruments (the API in a thread of its own):
 * the registries' texts merged into one exposition. Counters and histograms are sums over the threads (each
 * thread counted its own requests, jobs, platform calls), so equal series add up; a gauge is a reading of one
 * state, so the first text that has a series gives its value (the caller lists the thread that owns that
 * state first). Families keep their first HELP and TYPE and the order they first appear in.
 */
export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, { head: string[]; type: string; series: Map<string, number> }>();
  for (const text of texts) {
    let current: { head: string[]; type: string; series: Map<string, number> } | undefined;
    let pendingHelp: string | undefined;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      if (line.startsWith('# HELP ')) {
        pendingHelp = line;
        continue;
      }
      if (line.startsWith('# TYPE ')) {
        const [, , name = '', type = 'untyped'] = line.split(' ');
        current = families.get(name);
        if (!current) {
          current = { head: [...(pendingHelp ? [pendingHelp] : []), line], type, series: new Map() };
          families.set(name, current);
        }
        pendingHelp = undefined;
        continue;
      }
      if (!current || line.startsWith('#')) continue;
      const cut = line.lastIndexOf(' ');
      const series = line.slice(0, cut);
      const value = Number(line.slice(cut + 1));
      const seen = current.series.get(series);
      if (seen === undefined) current.series.set(series, value);
      else if (current.type !== 'gauge') current.series.set(series, seen + value);
    }
  }
  const out: string[] = [];
  for (const family of families.values()) {
    out.push(...family.head);
    for (const [series, value] of family.series) out.push(`${series} ${value}`);
  }
  return `${out.join('\n')}\n`;
}
