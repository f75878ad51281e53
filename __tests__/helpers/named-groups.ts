import { record, writeLines } from './records.js';

/*
 * Runs whose names break naive parsing: a group attribute "region:eu" valued "a=b" (and "c d"), and a
 * scenario called "overall" beside "billing". The scenario "overall" is right on half its records
 * (the pooled scope on 3 in 4); the candidate loses 10 right answers of group "a=b" there.
 */

export const ATTRIBUTE = 'region:eu';

function records(worse: boolean) {
  return ['overall', 'billing'].flatMap((scenario) =>
    Array.from({ length: 200 }, (_, i) => {
      const right = scenario === 'billing' || i % 4 < 2 ? 1 : 0;
      return record({
        scenario,
        id: String(i),
        correct: worse && scenario === 'overall' && i % 20 === 0 ? 0 : right,
        confidence: scenario === 'billing' ? 0.95 : 0.65,
        groups: { [ATTRIBUTE]: i % 2 === 0 ? 'a=b' : 'c d' },
      });
    }),
  );
}

/** The baseline's and the candidate's records files. */
export function namedRuns(): { baseline: string; candidate: string } {
  return { baseline: writeLines('baseline.jsonl', records(false)), candidate: writeLines('candidate.jsonl', records(true)) };
}

/**
 * Checks of accuracy pooled (0.725: passes) and in the scenario "overall" (0.45: fails), of the
 * group "a=b" named by its parts in that scenario (worse by 0.1: fails), of the attribute's worst
 * group by its escaped name, and calibration in both scopes (each its reliability diagram).
 */
export const NAMED_POLICY = `version: 1
name: names
settings:
  resamples: 200
  min_group_size: 5
checks:
  - metric: accuracy
    min: 0.6
  - metric: accuracy
    scenario: overall
    min: 0.6
  - metric: group_accuracy
    group: { attribute: "region:eu", value: "a=b" }
    scenario: overall
    max_regression: 0.02
  - metric: worst_group_accuracy:region%3Aeu
    min: 0.1
  - metric: ece
    scenario: overall
    max: 1
  - metric: ece
    max: 1
`;
