#!/usr/bin/env python3
"""Independent plain-Python reference for the gate's statistics: multiplicity adjustments, the
minimum detectable worsening, and normal quantiles.

Usage: python3 gate_statistics_reference.py CASES.json
  cases.json: {"holm": [[p, ...], ...], "bonferroni": [[p, ...], ...],
               "mde": [[sd, budget, alpha_per_test], ...], "quantiles": [p, ...]}
Prints the same keys with the results. Standard library only.
"""
import json
import sys
from statistics import NormalDist


def holm(pvalues):
    """Holm (1979): reject H(1..j) while p(k) <= alpha / (m - k + 1); as adjusted p-values, the running
    maximum of (m - k + 1) p(k) over the sorted p-values, capped at 1."""
    m = len(pvalues)
    ranked = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for k, i in enumerate(ranked, start=1):
        running = max(running, min(1.0, (m - k + 1) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def bonferroni(pvalues):
    return [min(1.0, len(pvalues) * p) for p in pvalues]


def mde(sd, budget, alpha):
    """The true worsening d caught with probability 0.8 by the rule 'block iff observed > max(b, z(1-a) sd)',
    the observed worsening being normal around d with standard deviation sd: solve
    P(N(d, sd) > t) = 0.8 for d, t = max(b, z(1 - a) sd)."""
    normal = NormalDist()
    threshold = max(budget, normal.inv_cdf(1 - alpha) * sd)
    return threshold + normal.inv_cdf(0.8) * sd


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        cases = json.load(file)
    print(json.dumps({
        "holm": [holm(ps) for ps in cases.get("holm", [])],
        "bonferroni": [bonferroni(ps) for ps in cases.get("bonferroni", [])],
        "mde": [mde(*case) for case in cases.get("mde", [])],
        "quantiles": [NormalDist().inv_cdf(p) for p in cases.get("quantiles", [])],
    }))


if __name__ == "__main__":
    main()
