#!/usr/bin/env python3
"""Independent plain-Python reference for the gate's statistics: multiplicity adjustments, the
minimum detectable worsening, normal quantiles, and the plan's split of a comparison's variance into
the part between instances and the noise within examples' repeated samples.

Usage: python3 gate_statistics_reference.py CASES.json
  cases.json: {"holm": [[p, ...], ...], "bonferroni": [[p, ...], ...],
               "mde": [[sd, budget, alpha_per_test], ...], "quantiles": [p, ...],
               "variance_components": [[run, ...], ...],   # a run: per unit, per group, the values
               "plan_split": [{"baseline": FILE, "candidate": FILE or null, "metric": m, "scenario": s or null}, ...]}
Prints the same keys with the results: a split is {"between", "within", "samples", "share"} or null;
a plan split {"samples", "share"} (share null when not split). Standard library only.
"""
import functools
import json
import sys
from statistics import NormalDist, mean, variance


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
    """The true worsening d caught with probability 0.8 by the budget test 'block iff observed > b + z(1-a) sd'
    (H0: worsening <= b), the observed worsening being normal around d with standard deviation sd: solve
    P(N(d, sd) > t) = 0.8 for d, t = b + z(1 - a) sd."""
    normal = NormalDist()
    threshold = budget + normal.inv_cdf(1 - alpha) * sd
    return threshold + normal.inv_cdf(0.8) * sd


def variance_components(runs):
    """One-way random-effects ANOVA by the method of moments. A unit's value is the mean of its groups'
    means (the difference candidate - baseline for two runs); per run, the within-group mean square
    MS_W = SS_W / (N - G) estimates the variance of one sample, and sampling adds MS_W / E^2 * sum 1/K_g
    to a unit's value. The variance of the unit values minus the mean sampling part is the between part."""
    units = [u for u in range(len(runs[0])) if all(run[u] for run in runs)]
    if len(units) < 2:
        return None
    values = [0.0] * len(units)
    within = sampling = effective = 0.0
    for r, run in enumerate(runs):
        ss_within = sum(sum((y - mean(g)) ** 2 for y in g) for u in units for g in run[u])
        df_within = sum(len(g) - 1 for u in units for g in run[u])
        if df_within == 0:
            return None
        ms_within = ss_within / df_within
        for i, u in enumerate(units):
            value = mean(mean(g) for g in run[u])
            values[i] += value if r == 0 else -value
        inverse_groups = mean(1 / len(run[u]) for u in units)
        factors = mean(sum(1 / len(g) for g in run[u]) / len(run[u]) ** 2 for u in units)
        within += ms_within * inverse_groups
        sampling += ms_within * factors
        effective += inverse_groups / factors / len(runs)
    between = max(0.0, variance(values) - sampling)
    return {
        "between": between,
        "within": within,
        "samples": within / sampling if sampling > 0 else effective,
        "share": sampling / (between + sampling) if sampling > 0 else 0.0,
    }


@functools.lru_cache(maxsize=None)
def read_records(path):
    with open(path, encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


def record_value(r, metric):
    """The value a record adds to a metric that is a mean over examples or calls (None: not read)."""
    answered = "error" not in r
    original = answered and not r.get("perturbation")
    if metric == "accuracy":
        return r["correct"] if original else None
    if metric == "brier":
        return (r["confidence"] - r["correct"]) ** 2 if original and r.get("confidence") is not None else None
    if metric == "error_rate":
        return 0 if answered else 1
    if metric == "toxicity_rate":
        return (1 if r["toxicity"] >= 0.5 else 0) if answered and r.get("toxicity") is not None else None
    if metric == "output_tokens_mean":
        return r["output_tokens"] if answered and r.get("output_tokens") is not None else None
    attribute, value = metric[len("group_accuracy:"):].split("=", 1)
    groups = r.get("groups") or {}
    return r["correct"] if original and groups.get(attribute) is not None and str(groups[attribute]) == value else None


def run_units(records, metric, scenario):
    """instance (scenario, id) -> example (perturbation name) -> the values of its samples."""
    units = {}
    for r in records:
        if scenario is not None and r["scenario"] != scenario:
            continue
        value = record_value(r, metric)
        if value is None:
            continue
        example = (r.get("perturbation") or {}).get("name")
        units.setdefault((r["scenario"], r["id"]), {}).setdefault(example, []).append(value)
    return units


def samples_per_example(records, scenario, instances):
    """Records per example (scenario, id, perturbation) of the given instances."""
    chosen = [r for r in records if (scenario is None or r["scenario"] == scenario) and (r["scenario"], r["id"]) in instances]
    examples = {(r["scenario"], r["id"], (r.get("perturbation") or {}).get("name")) for r in chosen}
    return len(chosen), len(examples)


def plan_split(case):
    """The plan's samples and within share for one check: paired on the instances both runs have in the scope."""
    runs = [read_records(case["candidate"])] if case.get("candidate") else []
    runs.append(read_records(case["baseline"]))
    scenario = case.get("scenario")
    in_scope = [{(r["scenario"], r["id"]) for r in run if scenario is None or r["scenario"] == scenario} for run in runs]
    shared = set.intersection(*in_scope)
    counts = [samples_per_example(run, scenario, shared) for run in runs]
    samples = sum(c[0] for c in counts) / sum(c[1] for c in counts)
    units = [run_units(run, case["metric"], scenario) for run in runs]
    keys = sorted(shared)
    split = variance_components([[list(u.get(key, {}).values()) for key in keys] for u in units])
    return {"samples": samples, "share": split["share"] if split else None}


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        cases = json.load(file)
    print(json.dumps({
        "holm": [holm(ps) for ps in cases.get("holm", [])],
        "bonferroni": [bonferroni(ps) for ps in cases.get("bonferroni", [])],
        "mde": [mde(*case) for case in cases.get("mde", [])],
        "quantiles": [NormalDist().inv_cdf(p) for p in cases.get("quantiles", [])],
        "variance_components": [variance_components(runs) for runs in cases.get("variance_components", [])],
        "plan_split": [plan_split(case) for case in cases.get("plan_split", [])],
    }))


if __name__ == "__main__":
    main()
