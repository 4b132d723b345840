/**
 * Clustering for the embedded diarizer (diarize-features.ts): k-means with k-means++
 * seeding, the silhouette score and divisive clustering. Pure and deterministic (seeded PRNG).
 */

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const dist2 = (a: number[], b: number[]) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return s;
};

/** k-means with k-means++ seeding, best of `restarts` by inertia (pure, deterministic). */
export function kmeans(points: number[][], k: number, restarts = 8, seed = 1): { labels: number[]; inertia: number } {
  const random = rng(seed);
  let best = { labels: points.map(() => 0), inertia: Infinity };
  for (let r = 0; r < restarts; r++) {
    const centres = [points[Math.floor(random() * points.length)].slice()];
    while (centres.length < k) {
      const d = points.map((p) => Math.min(...centres.map((c) => dist2(p, c))));
      const sum = d.reduce((a, b) => a + b, 0);
      let pick = random() * sum;
      let idx = 0;
      while (idx < d.length - 1 && pick > d[idx]) pick -= d[idx++];
      centres.push(points[idx].slice());
    }
    let labels = points.map(() => 0);
    for (let it = 0; it < 100; it++) {
      const next = points.map((p) => {
        let bi = 0;
        for (let c = 1; c < k; c++) if (dist2(p, centres[c]) < dist2(p, centres[bi])) bi = c;
        return bi;
      });
      const changed = next.some((l, i) => l !== labels[i]);
      labels = next;
      for (let c = 0; c < k; c++) {
        const members = points.filter((_, i) => labels[i] === c);
        if (!members.length) continue;
        centres[c] = members[0].map((_, d) => members.reduce((a, m) => a + m[d], 0) / members.length);
      }
      if (!changed && it > 0) break;
    }
    const inertia = points.reduce((a, p, i) => a + dist2(p, centres[labels[i]]), 0);
    if (inertia < best.inertia) best = { labels, inertia };
  }
  return best;
}

/** Mean silhouette of a labelling (Euclidean), on at most `maxPoints` evenly picked points (pure). */
export function silhouette(points: number[][], labels: number[], maxPoints = 800): number {
  const step = Math.max(1, Math.ceil(points.length / maxPoints));
  const idx = points.map((_, i) => i).filter((i) => i % step === 0);
  const k = Math.max(...labels) + 1;
  let total = 0;
  for (const i of idx) {
    const sums = new Array<number>(k).fill(0);
    const counts = new Array<number>(k).fill(0);
    for (const j of idx) {
      if (j === i) continue;
      sums[labels[j]] += Math.sqrt(dist2(points[i], points[j]));
      counts[labels[j]]++;
    }
    const own = labels[i];
    if (counts[own] === 0) continue; // singleton: silhouette 0
    const a = sums[own] / counts[own];
    let b = Infinity;
    for (let c = 0; c < k; c++) if (c !== own && counts[c] > 0) b = Math.min(b, sums[c] / counts[c]);
    if (Number.isFinite(b)) total += (b - a) / Math.max(a, b);
  }
  return total / (idx.length || 1);
}

/**
 * Scales each dimension by its spread over `rows` (NaN -> the mean), then by `weight(d)`. Done again
 * on each cluster before splitting it, so a split is judged on that cluster's own variability.
 */
export function standardise(rows: number[][], weight: (d: number) => number = () => 1): number[][] {
  if (!rows.length) return [];
  const dims = rows[0].length;
  const out = rows.map((r) => r.slice());
  for (let d = 0; d < dims; d++) {
    const vals = rows.map((r) => r[d]).filter((v) => !Number.isNaN(v));
    const m = vals.reduce((a, b) => a + b, 0) / (vals.length || 1);
    const sd = Math.sqrt(vals.reduce((a, b) => a + (b - m) ** 2, 0) / (vals.length || 1)) || 1;
    for (const r of out) r[d] = Number.isNaN(r[d]) ? 0 : ((r[d] - m) / sd) * weight(d);
  }
  return out;
}

export interface DivisiveOptions {
  maxK: number;
  minSilhouette: number;
  /** Least points on each side of a split. Default 3. */
  minSize?: number;
  /** Dimension weights after standardising. */
  weight?: (d: number) => number;
  /** Extra test of a split: clusters a and b of `labels`. */
  separate?: (labels: number[], a: number, b: number) => boolean;
}

/**
 * Divisive clustering (pure): starting from one cluster, the largest cluster that splits in two
 * (k-means on its own standardised points) with a silhouette of at least `minSilhouette`, at least
 * `minSize` points on each side and `separate` agreeing, becomes two; repeated until nothing splits
 * or `maxK` is reached. Each split needs its own evidence, so one voice is not cut up by what it says.
 */
export function divisiveClusters(points: number[][], o: DivisiveOptions): number[] {
  const minSize = o.minSize ?? 3;
  const labels = points.map(() => 0);
  let k = 1;
  const settled = new Set<number>();
  while (k < o.maxK) {
    const sizes = Array.from({ length: k }, (_, c) => labels.filter((l) => l === c).length);
    const order = sizes
      .map((n, c) => ({ n, c }))
      .filter(({ n, c }) => !settled.has(c) && n >= 2 * minSize)
      .sort((x, y) => y.n - x.n);
    if (!order.length) break;
    const c = order[0].c;
    const idx = labels.flatMap((l, i) => (l === c ? [i] : []));
    // Near-identical windows (the same recording played again) count once: repetition is no evidence.
    const { reps, of } = collapseDuplicates(
      standardise(
        idx.map((i) => points[i]),
        o.weight,
      ),
    );
    const split = reps.length >= 2 ? kmeans(reps, 2).labels : reps.map(() => 0);
    const trial = labels.slice();
    let ones = 0;
    idx.forEach((i, j) => {
      if (split[of[j]] === 1) {
        trial[i] = k;
        ones++;
      }
    });
    const repOnes = split.filter((l) => l === 1).length;
    const enough = Math.min(ones, idx.length - ones) >= minSize && repOnes > 0 && repOnes < reps.length;
    if (enough && silhouette(reps, split) >= o.minSilhouette && (o.separate?.(trial, c, k) ?? true)) {
      trial.forEach((l, i) => (labels[i] = l));
      k++;
    } else {
      settled.add(c);
    }
  }
  return labels;
}

/**
 * Greedy grouping of points closer than `ratio` x the median pairwise distance to an earlier kept
 * point (pure). Natural speech windows sit about half the median distance from their nearest
 * neighbour; a repeated recording gives windows at a few percent of it.
 */
export function collapseDuplicates(points: number[][], ratio = 0.1): { reps: number[][]; of: number[] } {
  const step = Math.max(1, Math.ceil(points.length / 200));
  const pairs: number[] = [];
  for (let i = 0; i < points.length; i += step) for (let j = i + step; j < points.length; j += step) pairs.push(dist2(points[i], points[j]));
  pairs.sort((a, b) => a - b);
  const eps2 = pairs.length ? pairs[Math.floor(pairs.length / 2)] * ratio * ratio : 0;
  const reps: number[][] = [];
  const of = points.map((p) => {
    const hit = reps.findIndex((r) => dist2(p, r) < eps2);
    if (hit >= 0) return hit;
    reps.push(p);
    return reps.length - 1;
  });
  return { reps, of };
}
