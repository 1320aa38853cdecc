/** A small seeded PRNG (sfc32, seeded by a string hash), so `--seed S` always writes the same data. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** Pick by weight: `weighted([[5, 0.68], [4, 0.13]])`. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
}

export function seededRandom(seed: string): Random {
  // cyrb128: four 32-bit words from the seed string.
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  let a = h1 >>> 0,
    b = h2 >>> 0,
    c = h3 >>> 0,
    d = h4 >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    weighted(items) {
      const total = items.reduce((sum, [, w]) => sum + w, 0);
      let x = next() * total;
      for (const [item, w] of items) if ((x -= w) < 0) return item;
      return items[items.length - 1]![0];
    },
  };
  return random;
}
