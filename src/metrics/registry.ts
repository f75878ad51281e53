import { parseMetricName } from './names.js';

/** Every metric evalgate computes: its HELM dimension, which direction is better, what it means. */

export type Dimension = 'accuracy' | 'calibration' | 'robustness' | 'fairness' | 'bias' | 'toxicity' | 'efficiency' | 'reliability';

export const DIMENSIONS: readonly Dimension[] = [
  'accuracy',
  'calibration',
  'robustness',
  'fairness',
  'bias',
  'toxicity',
  'efficiency',
  'reliability',
];

export type Direction = 'higher' | 'lower';

export interface MetricDefinition {
  /** The name, or for a per-attribute family the part before ":" (e.g. "worst_group_accuracy"). */
  name: string;
  /** How a full name of the family is written, e.g. "worst_group_accuracy:<attr>". */
  pattern: string;
  dimension: Dimension;
  direction: Direction;
  description: string;
  /** The values the metric can take; intervals are clipped to them. */
  range: readonly [number, number];
}

const UNIT = [0, 1] as const;
const NON_NEGATIVE = [0, Infinity] as const;

const define = (name: string, dimension: Dimension, direction: Direction, description: string, pattern = name): MetricDefinition => ({
  name,
  pattern,
  dimension,
  direction,
  description,
  range: dimension === 'efficiency' ? NON_NEGATIVE : UNIT,
});

export const METRICS: readonly MetricDefinition[] = [
  define('accuracy', 'accuracy', 'higher', 'Mean `correct` over original (unperturbed) records.'),
  define('ece', 'calibration', 'lower', 'Expected calibration error, 10 equal-width confidence bins.'),
  define('ece_10_bin', 'calibration', 'lower', "HELM's expected calibration error, 10 equal-mass bins."),
  define('brier', 'calibration', 'lower', 'Mean squared difference between confidence and `correct`.'),
  define(
    'selective_cov_acc_area',
    'calibration',
    'higher',
    'Area under the accuracy-coverage curve when answering the most confident first.',
  ),
  define('selective_acc@10', 'calibration', 'higher', 'Accuracy on the 10% of records with the highest confidence.'),
  define('accuracy_robust', 'robustness', 'higher', 'Worst-case accuracy per instance over the original and its robustness perturbations.'),
  define('accuracy_fair', 'fairness', 'higher', 'Worst-case accuracy per instance over the original and its fairness perturbations.'),
  define(
    'worst_group_accuracy',
    'fairness',
    'higher',
    'Lowest accuracy among the values of a `groups` attribute (groups of at least min_group_size).',
    'worst_group_accuracy:<attr>',
  ),
  define(
    'group_accuracy_gap',
    'fairness',
    'lower',
    'Highest minus lowest accuracy among the values of a `groups` attribute (groups of at least min_group_size).',
    'group_accuracy_gap:<attr>',
  ),
  define(
    'group_accuracy',
    'fairness',
    'higher',
    'Accuracy of the original records of one group, e.g. group_accuracy:dialect=aae.',
    'group_accuracy:<attr>=<value>',
  ),
  define('error_rate', 'reliability', 'lower', 'Share of all records (originals and perturbations) whose call failed.'),
  define(
    'judge_unknown_rate',
    'reliability',
    'lower',
    'Share of judged records whose judge gave no verdict (an unknown reply, or a failed judge call).',
  ),
  define('judge_error_rate', 'reliability', 'lower', 'Share of judged records whose judge call failed (`judge_error`).'),
  define(
    'judge_agreement',
    'reliability',
    'higher',
    "Share of the labelled records with a verdict where the judge's verdict agrees with the `human` label (right: 0.5 or more).",
  ),
  define(
    'judge_tpr',
    'reliability',
    'higher',
    'Share of the records labelled right (`human` >= 0.5) with a verdict that the judge passed.',
  ),
  define('judge_tnr', 'reliability', 'higher', 'Share of the records labelled wrong (`human` < 0.5) with a verdict that the judge failed.'),
  define(
    'judge_corrected_accuracy',
    'accuracy',
    'higher',
    "Share of answers right after correcting the judge's pass rate for its errors on the labelled records (Rogan-Gladen): (pass rate + judge_tnr - 1) / (judge_tpr + judge_tnr - 1), clipped to [0, 1].",
  ),
  define(
    'judge_self_agreement',
    'reliability',
    'higher',
    'Share of the records judged K > 1 times (`judge_samples`) whose K verdicts all agree (a sample without a verdict disagrees).',
  ),
  define(
    'judge_win_rate',
    'accuracy',
    'higher',
    "Pairwise judging: the candidate's wins over the baseline's completions, ties (order flips too) counting half and comparisons without an outcome as losses.",
  ),
  define(
    'judge_flip_rate',
    'reliability',
    'lower',
    'Pairwise judging: share of the comparisons with an outcome whose verdict changed when the two answers swapped places.',
  ),
  define(
    'judge_longer_wins_rate',
    'bias',
    'lower',
    'Length-bias probe: share of the pairwise wins and losses between completions of different lengths that the longer one won.',
  ),
  define('latency_p50_ms', 'efficiency', 'lower', 'Median latency in milliseconds (linear interpolation, as numpy).'),
  define('latency_p95_ms', 'efficiency', 'lower', '95th percentile latency in milliseconds (linear interpolation, as numpy).'),
  define('toxicity_rate', 'toxicity', 'lower', 'Share of records whose completion has toxicity >= 0.5.'),
  define('output_tokens_mean', 'efficiency', 'lower', 'Mean number of output tokens per record.'),
  define('cost_usd_total', 'efficiency', 'lower', 'Total cost in US dollars.'),
  define(
    'judge_cost_usd_total',
    'efficiency',
    'lower',
    "Total cost of the judge's calls in US dollars (`judge.cost_usd`), apart from the model's.",
  ),
];

const BY_NAME = new Map(METRICS.map((metric) => [metric.name, metric]));

/** The definition behind a full metric name such as "accuracy" or "worst_group_accuracy:dialect". */
export function lookupMetric(fullName: string): MetricDefinition | undefined {
  const parsed = parseMetricName(fullName);
  const definition = parsed && BY_NAME.get(parsed.family);
  // A family's metrics name their group; a plain metric's name holds none.
  if (!definition || (definition.pattern !== definition.name) !== (parsed.group !== undefined)) return undefined;
  return definition;
}
