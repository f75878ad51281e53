#!/usr/bin/env python3
"""Independent plain-Python reference implementation of the evaluation metrics.

Usage: python3 metrics_reference.py RECORDS.jsonl [--min-group-size N]

Prints one JSON object:
  {"overall": {metric: {"value": x, "n": k}, ...},
   "scenarios": {scenario: {metric: {"value": x, "n": k}, ...}, ...}}

Standard library only; written for clarity, not speed.
"""
import bisect
import json
import math
import sys


# ---------------------------------------------------------------- helpers

def mean(values):
    values = list(values)
    return sum(values) / len(values)


def is_error(r):
    return "error" in r


def is_original(r):
    return "perturbation" not in r or r["perturbation"] is None


def perturbation_kind(r):
    if is_original(r):
        return None
    return r["perturbation"].get("kind")


def has(r, field):
    return field in r and r[field] is not None


def put(out, name, value, n):
    out[name] = {"value": value, "n": n}


# ---------------------------------------------------------------- metrics

def accuracy_metrics(records, out):
    originals = [r for r in records if is_original(r) and not is_error(r)]
    if originals:
        put(out, "accuracy", mean(r["correct"] for r in originals), len(originals))


def worst_case_accuracy(records, kind, name, out):
    # instance key -> list of `correct` from original non-error records
    original_scores = {}
    instance_order = []
    for r in records:
        if is_original(r) and not is_error(r):
            key = (r["scenario"], r["id"])
            if key not in original_scores:
                original_scores[key] = []
                instance_order.append(key)
            original_scores[key].append(r["correct"])

    perturbed_scores = {}
    any_perturbed = False
    for r in records:
        if is_error(r) or is_original(r):
            continue
        if perturbation_kind(r) != kind:
            continue
        key = (r["scenario"], r["id"])
        if key not in original_scores:
            continue  # original missing or errored -> ignored
        perturbed_scores.setdefault(key, []).append(r["correct"])
        any_perturbed = True

    if not instance_order or not any_perturbed:
        return

    worsts = []
    for key in instance_order:
        scores = list(original_scores[key]) + perturbed_scores.get(key, [])
        worsts.append(min(scores))
    put(out, name, mean(worsts), len(worsts))


def calibration_records(records):
    return [r for r in records
            if is_original(r) and not is_error(r) and has(r, "confidence")]


def ece_equal_width(cal, out):
    N = len(cal)
    bins = {}
    for r in cal:
        c = r["confidence"]
        b = min(math.floor(c * 10), 9)
        bins.setdefault(b, []).append(r)
    total = 0.0
    for b in sorted(bins):
        members = bins[b]
        n_b = len(members)
        acc_b = mean(m["correct"] for m in members)
        conf_b = mean(m["confidence"] for m in members)
        total += (n_b / N) * abs(acc_b - conf_b)
    put(out, "ece", total, N)


def array_split_sizes(N, k):
    # numpy.array_split: first N % k chunks get N//k + 1 elements, rest N//k
    base = N // k
    extra = N % k
    return [base + 1 if i < extra else base for i in range(k)]


def ece_equal_mass(cal, out):
    N = len(cal)
    confs = sorted(r["confidence"] for r in cal)
    k = min(10, N)
    sizes = array_split_sizes(N, k)
    chunks = []
    start = 0
    for s in sizes:
        chunks.append(confs[start:start + s])
        start += s
    boundaries = []
    for j in range(len(chunks) - 1):
        boundaries.append((chunks[j][-1] + chunks[j + 1][0]) / 2)
    boundaries.append(1.0)
    boundaries = sorted(set(boundaries))

    bins = {}
    for r in cal:
        b = bisect.bisect_left(boundaries, r["confidence"])
        bins.setdefault(b, []).append(r)
    total = 0.0
    for b in sorted(bins):
        members = bins[b]
        n_b = len(members)
        acc_b = mean(m["correct"] for m in members)
        conf_b = mean(m["confidence"] for m in members)
        total += (n_b / N) * abs(acc_b - conf_b)
    put(out, "ece_10_bin", total, N)


def brier(cal, out):
    N = len(cal)
    put(out, "brier", mean((r["confidence"] - r["correct"]) ** 2 for r in cal), N)


def selective(cal, out):
    N = len(cal)
    # stable sort, confidence descending, ties keep input order
    ordered = sorted(cal, key=lambda r: -r["confidence"])
    acc_at = []  # acc_at[k-1] = mean correct of first k
    for k in range(1, N + 1):
        prefix = ordered[:k]
        acc_at.append(mean(r["correct"] for r in prefix))
    area = mean(acc_at)
    put(out, "selective_cov_acc_area", area, N)
    k10 = math.floor(0.1 * N) + 1
    put(out, "selective_acc@10", acc_at[k10 - 1], N)


def group_metrics(records, min_group_size, out):
    originals = [r for r in records if is_original(r) and not is_error(r)]
    attrs = []
    for r in originals:
        g = r.get("groups")
        if isinstance(g, dict):
            for a in g:
                if a not in attrs:
                    attrs.append(a)
    for attr in attrs:
        by_value = {}
        for r in originals:
            g = r.get("groups")
            if isinstance(g, dict) and attr in g and g[attr] is not None:
                by_value.setdefault(g[attr], []).append(r["correct"])
        eligible_acc = []
        eligible_n = 0
        for v in by_value:
            scores = by_value[v]
            acc = mean(scores)
            put(out, "group_accuracy:%s=%s" % (attr, v), acc, len(scores))
            if len(scores) >= min_group_size:
                eligible_acc.append(acc)
                eligible_n += len(scores)
        if len(eligible_acc) >= 2:  # one group alone has no worst and no gap
            put(out, "worst_group_accuracy:%s" % attr, min(eligible_acc), eligible_n)
            put(out, "group_accuracy_gap:%s" % attr,
                max(eligible_acc) - min(eligible_acc), eligible_n)


def percentile(sorted_values, q):
    n = len(sorted_values)
    h = (n - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, n - 1)
    return sorted_values[lo] + (h - lo) * (sorted_values[hi] - sorted_values[lo])


def operational_metrics(records, out):
    if records:
        n_err = len([r for r in records if is_error(r)])
        put(out, "error_rate", n_err / len(records), len(records))

    ok = [r for r in records if not is_error(r)]

    lat = sorted(r["latency_ms"] for r in ok if has(r, "latency_ms"))
    if lat:
        put(out, "latency_p50_ms", percentile(lat, 0.5), len(lat))
        put(out, "latency_p95_ms", percentile(lat, 0.95), len(lat))

    tox = [r["toxicity"] for r in ok if has(r, "toxicity")]
    if tox:
        put(out, "toxicity_rate", len([t for t in tox if t >= 0.5]) / len(tox), len(tox))

    outt = [r["output_tokens"] for r in ok if has(r, "output_tokens")]
    if outt:
        put(out, "output_tokens_mean", mean(outt), len(outt))

    cost = [r["cost_usd"] for r in ok if has(r, "cost_usd")]
    if cost:
        put(out, "cost_usd_total", sum(cost), len(cost))


def compute_scope(records, min_group_size):
    out = {}
    accuracy_metrics(records, out)
    worst_case_accuracy(records, "robustness", "accuracy_robust", out)
    worst_case_accuracy(records, "fairness", "accuracy_fair", out)
    cal = calibration_records(records)
    if cal:
        ece_equal_width(cal, out)
        ece_equal_mass(cal, out)
        brier(cal, out)
        selective(cal, out)
    group_metrics(records, min_group_size, out)
    operational_metrics(records, out)
    return out


def main(argv):
    path = None
    min_group_size = 10
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--min-group-size":
            min_group_size = int(argv[i + 1])
            i += 2
            continue
        if a.startswith("--min-group-size="):
            min_group_size = int(a.split("=", 1)[1])
            i += 1
            continue
        path = a
        i += 1
    if path is None:
        sys.stderr.write("usage: metrics_reference.py RECORDS.jsonl [--min-group-size N]\n")
        return 2

    records = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                records.append(json.loads(line))

    result = {"overall": compute_scope(records, min_group_size), "scenarios": {}}
    scenario_order = []
    for r in records:
        if r["scenario"] not in scenario_order:
            scenario_order.append(r["scenario"])
    for s in scenario_order:
        scoped = [r for r in records if r["scenario"] == s]
        result["scenarios"][s] = compute_scope(scoped, min_group_size)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
