#!/usr/bin/env python3
"""Seeded synthetic evaluation records for cross-checking the metrics.

Usage: python3 generate_records.py SEED N OUT.jsonl
Standard library only.
"""
import json
import random
import sys

PERTURBATIONS = [
    {"name": "typos", "kind": "robustness"},
    {"name": "lowercase", "kind": "robustness"},
    {"name": "dialect", "kind": "fairness"},
    {"name": "gender", "kind": "fairness"},
]

# "tone" has no confidence and no latency at all.
SCENARIOS = ["billing", "billing-exceptions", "refunds", "tone"]
NO_CONF_NO_LATENCY = "tone"

EXACT_CONFIDENCES = [0.0, 0.1, 0.5, 1.0]


def pick_correct(rng, p_correct):
    u = rng.random()
    if u < 0.12:
        return rng.choice([0.5, 0.25, 0.75])
    return 1 if rng.random() < p_correct else 0


def pick_confidence(rng, correct):
    u = rng.random()
    if u < 0.08:
        return rng.choice(EXACT_CONFIDENCES)
    # correlated with correctness, clipped to [0, 1]
    c = 0.55 + 0.3 * (correct - 0.5) + rng.gauss(0, 0.2)
    c = min(1.0, max(0.0, c))
    if u < 0.55:
        c = round(c, 2)  # many ties
    return c


def pick_groups(rng):
    u = rng.random()
    if u < 0.08:
        return None  # no groups at all
    g = {}
    if rng.random() < 0.92:
        d = rng.random()
        g["dialect"] = "sae" if d < 0.6 else ("aae" if d < 0.97 else "ind")
    if rng.random() < 0.9:
        s = rng.random()
        g["segment"] = "business" if s < 0.5 else ("consumer" if s < 0.985 else "rare")
    return g


def make_record(rng, scenario, iid, p_correct, perturbation, original_correct=None):
    r = {"scenario": scenario, "id": iid}
    if perturbation is not None:
        r["perturbation"] = dict(perturbation)
    r["input"] = "Question %s about %s?" % (iid, scenario)
    r["prediction"] = rng.choice(["yes", "no", "maybe", "refund approved", "escalate"])
    r["references"] = rng.choice(["yes", "no", "refund approved", "escalate"])

    if original_correct is not None and rng.random() < 0.6:
        c = original_correct  # perturbations often agree with the original
    else:
        c = pick_correct(rng, p_correct)
    r["correct"] = c

    if scenario != NO_CONF_NO_LATENCY and rng.random() < 0.88:
        r["confidence"] = pick_confidence(rng, c)

    g = pick_groups(rng)
    if g is not None:
        r["groups"] = g

    if scenario != NO_CONF_NO_LATENCY and rng.random() < 0.93:
        lat = rng.lognormvariate(6.0, 0.6)
        r["latency_ms"] = round(lat, 1) if rng.random() < 0.5 else int(lat)
    if rng.random() < 0.9:
        r["input_tokens"] = rng.randint(5, 800)
    if rng.random() < 0.9:
        r["output_tokens"] = rng.randint(0, 300)
    if rng.random() < 0.85:
        r["cost_usd"] = round(rng.uniform(0, 0.02), 6) if rng.random() < 0.95 else 0
    u = rng.random()
    if u < 0.1:
        r["toxicity"] = 0.5
    elif u < 0.85:
        r["toxicity"] = rng.choice([rng.random(), round(rng.random(), 2), 0.0, 1.0]) \
            if rng.random() < 0.2 else rng.betavariate(1.2, 3.0)
    if rng.random() < 0.07:
        r["meta"] = {"x": 1}
    return r


def make_error(r, rng):
    r = dict(r)
    r.pop("correct", None)
    r["error"] = "timeout"
    # errored records sometimes keep a confidence / latency, which must be ignored
    return r


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: generate_records.py SEED N OUT.jsonl\n")
        return 2
    seed = int(argv[1])
    target = int(argv[2])
    out_path = argv[3]
    rng = random.Random(seed)

    p_by_scenario = {"billing": 0.75, "billing-exceptions": 0.55, "refunds": 0.65, "tone": 0.8}
    records = []
    counter = 0
    used_ids = {s: set() for s in SCENARIOS}
    forced_cases = ["err_orig_with_ok_perts", "err_pert", "orphan_pert_only",
                    "only_fairness", "no_perturbation"]
    instance_no = 0
    while len(records) < target:
        scenario = SCENARIOS[instance_no % len(SCENARIOS)] if instance_no < 8 \
            else rng.choice(SCENARIOS)
        # share ids across scenarios sometimes
        if rng.random() < 0.25 and counter > 0:
            iid = "q%04d" % rng.randint(0, counter - 1)
            if iid in used_ids[scenario]:
                counter += 1
                iid = "q%04d" % (counter - 1)
        else:
            counter += 1
            iid = "q%04d" % (counter - 1)
        used_ids[scenario].add(iid)
        p = p_by_scenario[scenario]

        case = forced_cases[instance_no] if instance_no < len(forced_cases) else None
        instance_no += 1

        # which perturbations
        u = rng.random()
        if case == "no_perturbation":
            perts = []
        elif case == "only_fairness":
            perts = [PERTURBATIONS[2], PERTURBATIONS[3]]
        elif case in ("err_orig_with_ok_perts", "err_pert"):
            perts = list(PERTURBATIONS)
        elif u < 0.2:
            perts = []
        elif u < 0.35:
            perts = [x for x in PERTURBATIONS if x["kind"] == "fairness" and rng.random() < 0.7]
        elif u < 0.5:
            perts = [x for x in PERTURBATIONS if x["kind"] == "robustness" and rng.random() < 0.7]
        else:
            perts = [x for x in PERTURBATIONS if rng.random() < 0.6]

        # Repeated samples: about one instance in eight was asked two or three times (every example of
        # it: the original and each variant), sample 0 written with or without its "sample" field. The
        # samples of an example share its groups. The rest was asked once.
        n_samples = rng.choice([2, 3]) if rng.random() < 0.12 else 1

        def with_samples(make_one, failed=False):
            first = None
            for sample in range(n_samples):
                r = make_one()
                if first is None:
                    first = r
                elif "groups" in first:
                    r["groups"] = first["groups"]
                else:
                    r.pop("groups", None)
                if n_samples > 1 and (sample > 0 or rng.random() < 0.5):
                    r["sample"] = sample
                if failed or (case is None and rng.random() < 0.03):
                    r = make_error(r, rng)
                records.append(r)
            return first

        has_original = case != "orphan_pert_only" and rng.random() > 0.02
        orig_correct = None
        if has_original:
            first = with_samples(lambda: make_record(rng, scenario, iid, p, None),
                                 failed=case == "err_orig_with_ok_perts")
            orig_correct = first["correct"]
        if case == "orphan_pert_only" and not perts:
            perts = [PERTURBATIONS[0]]
        for pert in perts:
            with_samples(lambda: make_record(rng, scenario, iid, p, pert, orig_correct),
                         failed=case == "err_pert" and pert is perts[0])

    rng.shuffle(records)
    with open(out_path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
