#!/usr/bin/env python3
"""Plain-Python transcription of HELM's normalize_text and f1_score (helm/benchmark/metrics/
evaluate_reference_metrics.py), with nltk's f_measure (nltk/metrics/scores.py) inlined.

Usage: python3 helm_text_reference.py '[["gold", "prediction"], ...]'

Prints one JSON list: [{"gold": normalized gold, "pred": normalized prediction, "f1": f1}, ...].
Standard library only.
"""
import json
import re
import string
import sys


def normalize_text(text):
    def remove_articles(text):
        return re.sub(r"\b(a|an|the)\b", " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    return white_space_fix(remove_articles(remove_punc(text.lower())))


def f_measure(reference, test, alpha=0.5):
    if len(test) == 0 or len(reference) == 0:
        return None
    p = len(reference.intersection(test)) / len(test)
    r = len(reference.intersection(test)) / len(reference)
    if p == 0 or r == 0:
        return 0
    return 1.0 / (alpha / p + (1 - alpha) / r)


def f1_score(gold, pred):
    ret = f_measure(set(normalize_text(gold).split()), set(normalize_text(pred).split()))
    if ret is None:  # answer is the empty string after normalizing
        return 0.0
    return ret


pairs = json.loads(sys.argv[1])
print(json.dumps([{"gold": normalize_text(g), "pred": normalize_text(p), "f1": f1_score(g, p)} for g, p in pairs]))
