import { describe, expect, it } from '@jest/globals';
import { defaultDetect } from '../bench/gate21.js';
import { oneSidedMixture } from '../bench/reruns21.js';
import { rate } from '../bench/sim21-common.js';

/*
 * The formulas of issue 21's simulations that the design note states (docs/statistics-design-21.md),
 * checked by hand or against quadrature.
 */

describe("issue 21's simulation helpers", () => {
  it("give Wilson's 95% interval for a measured share", () => {
    // 0 of 10: [0, z^2 / (n + z^2)] = [0, 0.2775]; 5 of 10: 0.5 +- 0.2634.
    expect(rate(0, 10).high).toBeCloseTo(0.27753, 5);
    expect(rate(0, 10).low).toBe(0);
    expect(rate(5, 10).low).toBeCloseTo(0.23659, 5);
    expect(rate(5, 10).high).toBeCloseTo(0.76341, 5);
  });

  it('take the default detect as the design note states it', () => {
    expect(defaultDetect('accuracy', 0.01)).toBe(0.05);
    expect(defaultDetect('accuracy', 0.02)).toBeCloseTo(0.06, 12);
    expect(defaultDetect('accuracy', 0)).toBe(0.05);
    expect(defaultDetect('latency_p95_ms', '5%')).toBe('15%');
    expect(defaultDetect('latency_p95_ms', 20)).toBe(60);
    expect(defaultDetect('latency_p95_ms', 0)).toBe('10%');
  });

  it("compute the mSPRT's one-sided normal mixture as its integral", () => {
    // L = integral over w > 0 of exp(w x / V - w^2 / (2 V)) 2 N(w; 0, tau^2) dw, by the midpoint rule.
    for (const [x, variance, tau] of [
      [0.05, 0.03 ** 2, 0.08],
      [-0.02, 0.02 ** 2, 0.05],
      [0.1, 0.04 ** 2, 0.08],
    ]) {
      let integral = 0;
      const step = tau / 20000;
      for (let w = step / 2; w < 12 * tau; w += step) {
        const prior = (2 / (tau * Math.sqrt(2 * Math.PI))) * Math.exp(-(w * w) / (2 * tau * tau));
        integral += Math.exp((w * x) / variance - (w * w) / (2 * variance)) * prior * step;
      }
      expect(oneSidedMixture(x, variance, tau) / integral).toBeCloseTo(1, 6);
    }
  });
});
