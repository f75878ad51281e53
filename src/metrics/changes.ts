import { instanceMatch, type RecordTable } from './table.js';

/*
 * What changed, example by example, between a candidate and a baseline: on the examples both runs
 * answered (an instance's original, or one perturbation of it), how many went from right to wrong and
 * from wrong to right, and which changed most. With repeated samples an example's score is the mean
 * `correct` of its answered samples; it is right when that mean is at least RIGHT_AT (so partial
 * credit of one half or more is right). Failed calls are not scores: an example no sample of which
 * answered in one of the runs is not compared (error_rate and coverage report those).
 */

/** An example is right when its mean `correct` is at least this. */
const RIGHT_AT = 0.5;

/** One example's score in one run, and the row that shows it. */
export interface ExampleSide {
  /** The mean `correct` of its answered samples. */
  correct: number;
  /** How many of its samples answered (1 without repeated samples). */
  samples: number;
  /** The first row of the example, in file order, on the side of the flip it is on: its lowest `correct` when wrong, its highest when right. */
  row: number;
}

export interface InstanceFlip {
  id: string;
  /** The perturbation's name; null for the original. */
  perturbation: string | null;
  candidate: ExampleSide;
  baseline: ExampleSide;
}

/** The counts for an instance's originals (perturbation null) or one perturbation, in one scenario. */
export interface VariantChanges {
  perturbation: string | null;
  /** Examples both runs answered. */
  compared: number;
  rightToWrong: number;
  wrongToRight: number;
}

export interface ScenarioChanges {
  scenario: string;
  variants: VariantChanges[];
  /** Right to wrong, the largest changes first (ties in the candidate's file order), at most `limit`. */
  broken: InstanceFlip[];
  /** Wrong to right, the same way. */
  fixed: InstanceFlip[];
}

export interface InstanceChanges {
  rightAt: number;
  /** The most flips listed per scenario and direction. */
  limit: number;
  /** The scenarios of the candidate that share examples with the baseline, in the candidate's order. */
  scenarios: ScenarioChanges[];
}

export interface ChangeOptions {
  limit: number;
  /** Only this scenario. */
  scenario?: string;
}

/** Per example of a table: the sum of `correct` over its answered samples, their number, and its first rows with the lowest and the highest `correct`. */
interface ExampleScores {
  sum: Float64Array;
  answered: Int32Array;
  lowestRow: Int32Array;
  highestRow: Int32Array;
}

function scoreExamples(table: RecordTable): ExampleScores {
  const count = table.examples.perturbationOf.length;
  const scores = {
    sum: new Float64Array(count),
    answered: new Int32Array(count),
    lowestRow: new Int32Array(count).fill(-1),
    highestRow: new Int32Array(count).fill(-1),
  };
  const { exampleOf } = table.examples;
  for (let row = 0; row < table.size; row++) {
    if (table.failed[row] !== 0) continue; // a failed call, or a completion its judge did not grade
    const example = exampleOf[row];
    const correct = table.correct[row];
    scores.sum[example] += correct;
    scores.answered[example]++;
    if (scores.lowestRow[example] < 0 || correct < table.correct[scores.lowestRow[example]]) scores.lowestRow[example] = row;
    if (scores.highestRow[example] < 0 || correct > table.correct[scores.highestRow[example]]) scores.highestRow[example] = row;
  }
  return scores;
}

/** Per example of the candidate, the baseline's example of the same instance and perturbation (-1: none). */
function matchExamples(candidate: RecordTable, baseline: RecordTable, firstRow: Int32Array): Int32Array {
  const baselineInstance = instanceMatch(candidate, baseline);
  // The baseline's example of each (instance, perturbation), in one typed array (a Map of 300,000
  // entries cost a second in a gate's profile).
  const stride = baseline.examples.perturbations.length + 1;
  const baselineExample = new Int32Array(baseline.instanceCount * stride).fill(-1);
  for (let row = 0; row < baseline.size; row++) {
    const example = baseline.examples.exampleOf[row];
    baselineExample[baseline.instanceOf[row] * stride + baseline.examples.perturbationOf[example]] = example;
  }
  // A perturbation's number in the baseline: 0 for the original, -1 when the baseline has no such perturbation.
  const perturbationInBaseline = [
    0,
    ...candidate.examples.perturbations.map((name) => baseline.examples.perturbations.indexOf(name) + 1 || -1),
  ];
  return firstRow.map((row, example) => {
    const instance = baselineInstance[candidate.instanceOf[row]];
    const perturbation = perturbationInBaseline[candidate.examples.perturbationOf[example]];
    if (instance < 0 || perturbation < 0) return -1;
    return baselineExample[instance * stride + perturbation];
  });
}

/** Each example's first row (its order in the file). */
function firstRows(table: RecordTable): Int32Array {
  const first = new Int32Array(table.examples.perturbationOf.length).fill(-1);
  for (let row = table.size - 1; row >= 0; row--) first[table.examples.exampleOf[row]] = row;
  return first;
}

/** An example's mean `correct` over its answered samples. */
const meanOf = (scores: ExampleScores, example: number) => scores.sum[example] / scores.answered[example];

/** What changed between the two runs on the examples they share, per scenario of the candidate. */
export function instanceChanges(candidate: RecordTable, baseline: RecordTable, { limit, scenario }: ChangeOptions): InstanceChanges {
  const firstRow = firstRows(candidate);
  const matched = matchExamples(candidate, baseline, firstRow);
  const ours = scoreExamples(candidate);
  const theirs = scoreExamples(baseline);
  // The flips are kept as the candidate's example numbers (a few bytes each); only those listed become objects.
  const perScenario = candidate.scenarios.map((name) => ({
    scenario: name,
    variants: new Map<number, VariantChanges>(),
    broken: [] as number[],
    fixed: [] as number[],
  }));
  // Examples are numbered in order of first appearance: this loop walks the candidate in file order.
  for (let example = 0; example < firstRow.length; example++) {
    const other = matched[example];
    if (other < 0 || ours.answered[example] === 0 || theirs.answered[other] === 0) continue;
    const scope = perScenario[candidate.scenarioOf[firstRow[example]]];
    if (scenario !== undefined && scope.scenario !== scenario) continue;
    const perturbationNumber = candidate.examples.perturbationOf[example];
    let counts = scope.variants.get(perturbationNumber);
    if (!counts) {
      const perturbation = perturbationNumber === 0 ? null : candidate.examples.perturbations[perturbationNumber - 1];
      scope.variants.set(perturbationNumber, (counts = { perturbation, compared: 0, rightToWrong: 0, wrongToRight: 0 }));
    }
    counts.compared++;
    const rightNow = meanOf(ours, example) >= RIGHT_AT;
    if (rightNow === meanOf(theirs, other) >= RIGHT_AT) continue;
    if (rightNow) counts.wrongToRight++;
    else counts.rightToWrong++;
    scope[rightNow ? 'fixed' : 'broken'].push(example);
  }
  const flip = (example: number, fixed: boolean): InstanceFlip => {
    const other = matched[example];
    const perturbationNumber = candidate.examples.perturbationOf[example];
    return {
      id: candidate.instanceIndex.idOf(candidate.instanceOf[firstRow[example]]),
      perturbation: perturbationNumber === 0 ? null : candidate.examples.perturbations[perturbationNumber - 1],
      candidate: {
        correct: meanOf(ours, example),
        samples: ours.answered[example],
        row: (fixed ? ours.highestRow : ours.lowestRow)[example],
      },
      baseline: {
        correct: meanOf(theirs, other),
        samples: theirs.answered[other],
        row: (fixed ? theirs.lowestRow : theirs.highestRow)[other],
      },
    };
  };
  // The largest changes first; sort is stable, so ties keep the candidate's file order.
  const change = (example: number) => Math.abs(meanOf(ours, example) - meanOf(theirs, matched[example]));
  const worst = (examples: number[], fixed: boolean) =>
    examples
      .sort((a, b) => change(b) - change(a))
      .slice(0, limit)
      .map((example) => flip(example, fixed));
  return {
    rightAt: RIGHT_AT,
    limit,
    scenarios: perScenario
      .filter((scope) => scope.variants.size > 0)
      .map((scope) => ({
        scenario: scope.scenario,
        variants: [...scope.variants.entries()].sort(([a], [b]) => a - b).map(([, counts]) => counts),
        broken: worst(scope.broken, false),
        fixed: worst(scope.fixed, true),
      })),
  };
}
