/**
 * Per-request HTTP statistics (a counter and a latency histogram by route, method and status
 * code) kept in plain arrays and handed to prom-client only when /metrics is scraped.
 *
 * Why not prom-client's own Counter and Histogram on the request path: their labelled children
 * hash the label object on every inc() and observe(), which showed up in CPU profiles of the
 * router benchmark's server. Here a request costs one Map lookup and a few array writes; a
 * scrape walks the series, bounded by the route table (unmatched paths share one route label).
 *
 * The two objects returned by `metrics()` are what prom-client's Registry.registerMetric needs
 * (name, help, type, get, reset), so the exposition text is prom-client's own.
 */

export interface RequestStatsOptions {
  counterName: string;
  counterHelp: string;
  histogramName: string;
  histogramHelp: string;
  /** Upper bounds in seconds, ascending. */
  buckets: readonly number[];
}

type Labels = { route: string; method: string; status_code: string };

interface Series {
  labels: Labels;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  perBucket: Float64Array;
}

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** The part of prom-client's metric interface its Registry uses. */
export interface CollectedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "histogram";
  readonly aggregator: "sum";
  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: "sum";
    values: MetricValue[];
  }>;
  reset(): void;
}

export interface RequestStats {
  observe(route: string, method: string, statusCode: number, seconds: number): void;
  /** The counter and the histogram, for registry.registerMetric. */
  metrics(): [CollectedMetric, CollectedMetric];
}

export function createRequestStats(options: RequestStatsOptions): RequestStats {
  const buckets = [...options.buckets];
  for (let i = 1; i < buckets.length; i++) {
    if (!((buckets[i] ?? 0) > (buckets[i - 1] ?? 0))) {
      throw new RangeError("histogram buckets must be strictly ascending");
    }
  }
  const series: Series[] = [];
  // route -> method -> status code -> series: the route and method strings are the same objects
  // on every request (V8 keeps their hashes), so finding a series builds no string.
  let byRoute = new Map<string, Map<string, Map<number, Series>>>();

  function observe(route: string, method: string, statusCode: number, seconds: number): void {
    let byMethod = byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let s = byStatus.get(statusCode);
    if (s === undefined) {
      s = {
        labels: { route, method, status_code: String(statusCode) },
        count: 0,
        sum: 0,
        perBucket: new Float64Array(buckets.length + 1),
      };
      series.push(s);
      byStatus.set(statusCode, s);
    }
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < buckets.length && seconds > (buckets[i] as number)) i++;
    (s.perBucket[i] as number)++;
  }

  const counter: CollectedMetric = {
    name: options.counterName,
    help: options.counterHelp,
    type: "counter",
    aggregator: "sum",
    async get() {
      const values = series.map((s) => ({ value: s.count, labels: s.labels }));
      return { name: this.name, help: this.help, type: this.type, aggregator: "sum", values };
    },
    reset() {
      series.length = 0;
      byRoute = new Map();
    },
  };

  const histogram: CollectedMetric = {
    name: options.histogramName,
    help: options.histogramHelp,
    type: "histogram",
    aggregator: "sum",
    async get() {
      const name = this.name;
      const values: MetricValue[] = [];
      for (const s of series) {
        let cumulative = 0;
        for (let i = 0; i <= buckets.length; i++) {
          cumulative += s.perBucket[i] as number;
          const le = i < buckets.length ? (buckets[i] as number) : "+Inf";
          values.push({
            value: cumulative,
            labels: { le, ...s.labels },
            metricName: `${name}_bucket`,
          });
        }
        values.push({ value: s.sum, labels: s.labels, metricName: `${name}_sum` });
        values.push({ value: s.count, labels: s.labels, metricName: `${name}_count` });
      }
      return { name, help: this.help, type: this.type, aggregator: "sum", values };
    },
    reset() {
      series.length = 0;
      byRoute = new Map();
    },
  };

  return { observe, metrics: () => [counter, histogram] };
}
