#!/usr/bin/env python3
"""Independent plain-Python reference implementation of the evaluation metrics.

Usage: python3 metrics_reference.py RECORDS.jsonl [--min-group-size N]

Prints one JSON object:
  {"overall": {metric: {"value": x, "n": k}, ...},
   "scenarios": {scenario: {metric: {"value": x, "n": k}, ...}, ...}}

Repeated samples: records of one example (scenario, id, perturbation) with different "sample" are
generations of the same prompt. Accuracy, group accuracy, the worst cases, ece and brier average an
example's samples first (each answered sample weighs 1/K of its example); every other metric counts
every record, as it does without samples.

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

def example_of(r):
    name = None if is_original(r) else r["perturbation"]["name"]
    return (r["scenario"], r["id"], name)


def answered_by_example(records):
    """example -> the `correct` of its answered samples, examples in order of first appearance."""
    by_example = {}
    for r in records:
        if not is_error(r):
            by_example.setdefault(example_of(r), []).append(r["correct"])
    return by_example


def accuracy_metrics(records, out):
    originals = {e: scores for e, scores in answered_by_example(records).items() if e[2] is None}
    if originals:
        put(out, "accuracy", mean(mean(scores) for scores in originals.values()), len(originals))


def worst_case_accuracy(records, kind, name, out):
    # The mean over each example's samples; per instance the lowest of its original's and its variants' of this kind.
    kinds = {example_of(r): perturbation_kind(r) for r in records}
    example_means = {e: mean(scores) for e, scores in answered_by_example(records).items()}
    instance_order = []
    worst = {}
    for (scenario, iid, perturbation), value in example_means.items():
        if perturbation is None:
            instance_order.append((scenario, iid))
            worst[(scenario, iid)] = min(worst.get((scenario, iid), value), value)
    any_perturbed = False
    for (scenario, iid, perturbation), value in example_means.items():
        key = (scenario, iid)
        if perturbation is None or kinds[(scenario, iid, perturbation)] != kind or key not in worst:
            continue  # an original missing or failed: its variants are ignored
        worst[key] = min(worst[key], value)
        any_perturbed = True
    if not instance_order or not any_perturbed:
        return
    put(out, name, mean(worst[key] for key in instance_order), len(instance_order))


def calibration_records(records):
    return [r for r in records
            if is_original(r) and not is_error(r) and has(r, "confidence")]


def sample_weights(cal):
    """Each calibrated record's weight: 1 / the calibrated samples of its example (1 without samples)."""
    per_example = {}
    for r in cal:
        per_example[example_of(r)] = per_example.get(example_of(r), 0) + 1
    return [1.0 / per_example[example_of(r)] for r in cal], len(per_example)


def ece_equal_width(cal, out):
    weights, examples = sample_weights(cal)
    W = sum(weights)
    bins = {}
    for r, w in zip(cal, weights):
        c = r["confidence"]
        b = min(math.floor(c * 10), 9)
        bins.setdefault(b, []).append((r, w))
    total = 0.0
    for b in sorted(bins):
        members = bins[b]
        w_b = sum(w for _, w in members)
        acc_b = sum(w * m["correct"] for m, w in members) / w_b
        conf_b = sum(w * m["confidence"] for m, w in members) / w_b
        total += (w_b / W) * abs(acc_b - conf_b)
    put(out, "ece", total, examples)


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
    by_example = {}
    for r in cal:
        by_example.setdefault(example_of(r), []).append((r["confidence"] - r["correct"]) ** 2)
    put(out, "brier", mean(mean(errors) for errors in by_example.values()), len(by_example))


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
    answered = {}
    for r in originals:
        answered[example_of(r)] = answered.get(example_of(r), 0) + 1
    attrs = []
    for r in originals:
        g = r.get("groups")
        if isinstance(g, dict):
            for a in g:
                if a not in attrs:
                    attrs.append(a)
    for attr in attrs:
        # Each answered sample carries 1/K of its example: a group's accuracy is the mean over its
        # examples of their samples' mean, and its size the number of examples.
        by_value = {}
        for r in originals:
            g = r.get("groups")
            if isinstance(g, dict) and attr in g and g[attr] is not None:
                by_value.setdefault(g[attr], []).append((r["correct"], 1.0 / answered[example_of(r)]))
        eligible_acc = []
        eligible_n = 0
        for v in by_value:
            scores = by_value[v]
            acc = sum(c * w for c, w in scores) / sum(w for _, w in scores)
            size = round(sum(w for _, w in scores))
            put(out, "group_accuracy:%s=%s" % (attr, v), acc, size)
            if size >= min_group_size:
                eligible_acc.append(acc)
                eligible_n += size
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
