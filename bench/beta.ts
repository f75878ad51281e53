// Beta draws for the simulations: per-question difficulty, shared by both runs of a trial.
import type { Random } from '../src/stats/random.js';

/** Beta(a, b) draws from `random`: the ratio of two gamma draws (Marsaglia-Tsang, boosted below 1). */
export function betaSampler(random: Random): (a: number, b: number) => number {
  const normal = () => Math.sqrt(-2 * Math.log(1 - random.nextFloat())) * Math.cos(2 * Math.PI * random.nextFloat());
  const gamma = (shape: number): number => {
    if (shape < 1) return gamma(shape + 1) * random.nextFloat() ** (1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      if (Math.log(random.nextFloat()) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
    }
  };
  return (a, b) => {
    const x = gamma(a);
    return x / (x + gamma(b));
  };
}
