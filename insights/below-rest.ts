/**
 * Whether a group of reviews (a technician's, a service's) is rated well below the rest: the owner
 * report's "needs attention" by level. Three conditions, each for its own reason
 * (docs/insights-method.md, "The owner report"):
 *
 * - MIN_REVIEWS reviews on each side: below that, one or two unhappy customers make the gap;
 * - WELL_BELOW stars or more between the averages: a gap an owner would act on;
 * - Welch's one-sided t-test at SIGNIFICANCE: the gap is unlikely to be chance given how spread
 *   the stars are on each side (Welch's, because the two sides' spreads differ: a technician with
 *   two 1-star reviews among 5s is spread wider than the business).
 */
import { round2 } from "../core/dataset.ts";

/** Reviews by stars, 1 to 5. */
export type StarCounts = ArrayLike<number>;

/** The fewest reviews on each side of a comparison before the report flags it. */
export const MIN_REVIEWS = 8;
/** How far below the rest's average a group must be to need attention. */
export const WELL_BELOW = 0.5;
/** The chance, below which a gap is no accident of which customers wrote. */
export const SIGNIFICANCE = 0.05;

interface Moments {
  n: number;
  mean: number;
  variance: number;
}

function moments(counts: StarCounts): Moments {
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (let k = 0; k < counts.length; k++) {
    n += counts[k]!;
    sum += (k + 1) * counts[k]!;
    squares += (k + 1) ** 2 * counts[k]!;
  }
  const mean = n ? sum / n : 0;
  return { n, mean, variance: n > 1 ? (squares - n * mean * mean) / (n - 1) : 0 };
}

/** Star counts of `all` less those of `part` (the rest of the reviews). */
export const without = (all: StarCounts, part: StarCounts): number[] => Array.from(all, (n, k) => n - (part[k] ?? 0));

/** The average of some star counts, rounded as the report prints it. */
export const averageOf = (counts: StarCounts) => round2(moments(counts).mean);

/** Whether `own` is rated well below `rest` by the three conditions above. */
export function belowTheRest(own: StarCounts, rest: StarCounts): boolean {
  const [a, b] = [moments(own), moments(rest)];
  if (a.n < MIN_REVIEWS || b.n < MIN_REVIEWS) return false;
  if (round2(b.mean) - round2(a.mean) < WELL_BELOW - 1e-9) return false;
  return welchOneSided(a, b) < SIGNIFICANCE;
}

/** Welch's t-test: the chance of a gap this wide or wider, `a`'s mean below `b`'s, were the two the same. */
export function welchOneSided(a: Moments, b: Moments): number {
  const [va, vb] = [a.variance / a.n, b.variance / b.n];
  const se = Math.sqrt(va + vb);
  if (se === 0) return b.mean > a.mean ? 0 : 1;
  const t = (b.mean - a.mean) / se;
  // Welch–Satterthwaite degrees of freedom.
  const df = (va + vb) ** 2 / ((va * va) / (a.n - 1 || 1) + (vb * vb) / (b.n - 1 || 1));
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? tail : 1 - tail;
}

/** ln Γ(x), Lanczos's approximation (Numerical Recipes §6.1). */
function logGamma(x: number): number {
  const c = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let ser = 1.000000000190015;
  for (const v of c) ser += v / ++y;
  return -tmp + Math.log((2.5066282746310005 * ser) / x);
}

/** The regularised incomplete beta function I_x(a, b), by its continued fraction (Numerical Recipes §6.4). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x > (a + 1) / (a + b + 2)) return 1 - (front * fraction(1 - x, b, a)) / b;
  return (front * fraction(x, a, b)) / a;
}

/** The continued fraction of the incomplete beta function, by Lentz's method. */
function fraction(x: number, a: number, b: number): number {
  const tiny = 1e-30;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let f = d;
  for (let m = 1; m <= 200; m++) {
    for (const num of [
      (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m)),
      (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1)),
    ]) {
      d = 1 + num * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + num / c;
      c = Math.abs(c) < tiny ? tiny : c;
      f *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-12) break;
  }
  return f;
}
