import { SAMPLES_CANNOT_REACH } from '../gate/types.js';
import { didNotRun } from '../gate/verdict.js';
import { shownScope } from '../metrics/names.js';
import { count } from './format.js';
import type { GateReport } from './json.js';
import { amountText, changeIntervalText, changeText, valueIntervalText, valueText } from './units.js';
import { STATUS_WORDS } from './words.js';

/*
 * What each check found, in plain words with units, for every report (comment, terminal, HTML): the
 * line that says why a check blocks, warns or is inconclusive, the cells of the checks' table, and which
 * checks are error-controlled. `escape` makes text safe for the output format; it is applied to every
 * piece, data or not (the words and numbers here hold nothing it would change but `$`, `[` and `]`).
 */

export type CheckRow = GateReport['checks'][number];
type Escape = (text: string) => string;

/** The order checks are listed in: what needs a look first. */
const STATUS_ORDER = ['fail', 'error', 'inconclusive', 'warn', 'skipped', 'pass', 'off'];

/** The checks sorted by what needs a look first, keeping the policy's order within a status. */
export function byStatus(checks: CheckRow[]): CheckRow[] {
  return checks
    .map((check, index) => ({ check, index }))
    .sort((a, b) => STATUS_ORDER.indexOf(a.check.status) - STATUS_ORDER.indexOf(b.check.status) || a.index - b.index)
    .map(({ check }) => check);
}

/** Statuses that get a line of their own under the verdict. */
export const NOTED_STATUSES = ['fail', 'error', 'inconclusive', 'warn'];

/** "accuracy (overall)": the check and its scope. */
export function checkName(check: CheckRow, escape: Escape): string {
  return `${escape(check.metric)} (${escape(shownScope(check))})`;
}

/**
 * The value the decision used and its 95% interval: for a bound judged on components (ece, a worst
 * group, a gap), the corrected estimate and the components' interval (`corrected`); else the metric's value.
 */
export function decidedValue(check: CheckRow): { value: number; ci: [number, number] | null; corrected: boolean } | undefined {
  if (check.boundJudgedOn) return { value: check.boundJudgedOn.estimate, ci: check.boundJudgedOn.interval, corrected: true };
  return check.candidate ? { value: check.candidate.value, ci: check.candidate.ci, corrected: false } : undefined;
}

/** The mark of a corrected value in the table, explained under it (CORRECTED_NOTE). */
export const CORRECTED_MARK = '†';
export const CORRECTED_NOTE =
  '† the bias-corrected estimate and the interval its bound was judged on (docs/statistics.md, bounds on biased metrics); the plain value is in the details.';

/** "80.5% [77.3, 83.7]", "12.6% [7.75, 15.8] †": the candidate as the decision saw it. */
export function candidateCell(check: CheckRow): string {
  const decided = decidedValue(check);
  if (!decided) return '-';
  const interval = decided.ci ? ` ${valueIntervalText(check.metric, decided.ci)}` : '';
  return `${valueText(check.metric, decided.value)}${interval}${decided.corrected ? ` ${CORRECTED_MARK}` : ''}`;
}

/** "+8.11 pts [+3.05, +11.3] pts", "-182 ms (point estimates)", "-". */
export function changeCell(check: CheckRow): string {
  const comparison = check.comparison;
  if (!comparison) return '-';
  const change = changeText(check.metric, comparison.change);
  if (comparison.method === 'summary') return `${change} (point estimates)`;
  // The interval in the change's unit, said once: "+8.11 pts [+3.05, +11.3]".
  const interval = comparison.ci ? changeIntervalText(check.metric, comparison.ci, false) : '';
  return interval ? `${change} ${interval}` : change;
}

const boundsMode = (check: CheckRow) => (check.bounds && check.bounds !== 'point' ? ` (${check.bounds})` : '');

/** "worse by ≤ 2 pts", "worse by ≤ 50% (336 ms)", relaxed by a trade-off: "(4 pts by trade-off X)". */
function budgetText(check: CheckRow, escape: Escape): string | undefined {
  const stated = check.limits?.maxRegression;
  if (stated === undefined) return undefined;
  const budget = check.budget;
  const relative = typeof stated === 'string' ? stated : undefined;
  const inEffect = budget ? amountText(check.metric, budget.value) : undefined;
  const from = budget && budget.from !== 'the check' ? budget.from : undefined;
  const amount = relative ?? amountText(check.metric, stated as number);
  const effect = from ? ` (${inEffect} by ${escape(from)})` : relative && inEffect ? ` (${inEffect})` : '';
  return `worse by ≤ ${amount}${effect}${check.test === 'non-inferiority' ? ' (non-inferiority)' : ''}`;
}

/** "≥ 70%, worse by ≤ 2 pts": the check's limits in units; the policy's words for a report without them. */
export function limitCell(check: CheckRow, escape: Escape): string {
  if (!check.limits) return escape(check.threshold);
  const { min, max } = check.limits;
  const parts = [
    ...(min !== undefined ? [`≥ ${valueText(check.metric, min)}${boundsMode(check)}`] : []),
    ...(max !== undefined ? [`≤ ${valueText(check.metric, max)}${boundsMode(check)}`] : []),
    budgetText(check, escape),
    ...(check.builtin ? ['built-in'] : []),
  ].filter((part) => part !== undefined);
  return parts.join(', ');
}

/** The p-value a regression check decides with, and its adjusted value: non-inferiority's, the budget test's, or pWorse. */
export function decidingP(check: CheckRow): { kind: string; p: number; adjusted?: number } | undefined {
  const c = check.comparison;
  if (!c) return undefined;
  if (c.pNotInferior !== undefined) return { kind: 'non-inferiority', p: c.pNotInferior };
  if (c.pOverBudget !== undefined) return { kind: 'over budget', p: c.pOverBudget, adjusted: c.pOverBudgetAdjusted };
  if (c.pWorse !== undefined) return { kind: 'worse', p: c.pWorse, adjusted: c.pWorseAdjusted };
  return undefined;
}

/** "0.0015 (adjusted 0.0075)" */
export function pText(p: number, adjusted?: number): string {
  return adjusted !== undefined && adjusted !== p ? `${p.toPrecision(2)}, adjusted ${adjusted.toPrecision(2)}` : p.toPrecision(2);
}

/** Whether the bound part of a check failed, when the report says enough to tell (its significance). */
function boundFailed(check: CheckRow, alpha: number | undefined): boolean | undefined {
  const decided = decidedValue(check);
  const { min, max } = check.limits ?? {};
  if (!decided || (min === undefined && max === undefined)) return undefined;
  const test = check.boundTest;
  if (test && alpha !== undefined) return test.claim === 'crossed' ? (test.pAdjusted ?? test.p) < alpha : test.p >= alpha;
  if (test) return undefined;
  return (min !== undefined && decided.value < min) || (max !== undefined && decided.value > max);
}

/** Whether the regression part of a check failed, when the report says enough to tell. */
function regressionFailed(check: CheckRow, alpha: number | undefined): boolean | undefined {
  const { comparison, budget } = check;
  if (!comparison || !budget) return undefined;
  const nonInferiority = check.test === 'non-inferiority';
  const deciding = decidingP(check);
  if (!deciding) return nonInferiority ? comparison.worsening >= budget.value : comparison.worsening > budget.value;
  if (alpha === undefined) return undefined;
  return nonInferiority ? deciding.p >= alpha : (deciding.adjusted ?? deciding.p) < alpha;
}

/** "24.1% [17.3, 30.2] is above its maximum 12%, with confidence (p 0.0005, adjusted 0.003)" */
function boundWords(check: CheckRow): string {
  const decided = decidedValue(check)!;
  const { min, max } = check.limits ?? {};
  const below = min !== undefined && decided.value < min;
  const [side, bound] = below || max === undefined ? ['minimum', min!] : ['maximum', max];
  const where = below ? 'below' : max !== undefined && decided.value > max ? 'above' : 'within';
  const value = `${valueText(check.metric, decided.value)}${decided.corrected ? ' (bias-corrected)' : ''}`;
  const test = check.boundTest;
  const evidence = !test
    ? check.bounds === 'point' || !check.bounds
      ? ' (a point estimate: no error control)'
      : ''
    : test.claim === 'crossed'
      ? `, with confidence (p ${pText(test.p, test.pAdjusted)})`
      : `, not shown inside it with confidence (p ${pText(test.p)})`;
  return `${value} is ${where} its ${side} ${valueText(check.metric, bound)}${evidence}`;
}

/** "8.11 pts worse than the baseline [+3.05, +11.3] pts, over its budget of 1 pt (p 0.0015, adjusted 0.0075)" */
function regressionWords(check: CheckRow, escape: Escape): string {
  const comparison = check.comparison!;
  const worse = comparison.worsening > 0;
  const amount = amountText(check.metric, comparison.change);
  const interval = comparison.ci ? ` (95% interval of the change ${changeIntervalText(check.metric, comparison.ci)})` : '';
  const budget = check.budget ? amountText(check.metric, check.budget.value) : undefined;
  const deciding = decidingP(check);
  const p = deciding ? ` (p ${pText(deciding.p, deciding.adjusted)})` : comparison.method === 'summary' ? ' (point estimates)' : '';
  const claim =
    check.test === 'non-inferiority'
      ? `, not shown within its budget of ${budget}`
      : worse
        ? `, ${comparison.worsening > (check.budget?.value ?? 0) ? 'over' : 'within'} its budget of ${budget}`
        : '';
  return escape(`${amount} ${worse ? 'worse' : 'better'} than the baseline${interval}${claim}${p}`);
}

/**
 * "can detect a worsening of 6.7 pts at 80% power but must detect 5 pts: about 2037 shared instances,
 * or 9 samples per example at today's instances, would settle it" (the samples when the gate sized them:
 * power.samplesNeeded, as `evalgate plan` does).
 */
export function inconclusiveWords(check: CheckRow, samples: number): string {
  const power = check.power;
  const metric = check.metric;
  const must =
    power?.detect === null || power?.detect === undefined
      ? 'what it must detect'
      : `${amountText(metric, power.detect)}${power.detectFrom === 'default' ? ' (the default detect)' : ''}`;
  const sees =
    power?.mde === null || power?.mde === undefined
      ? `the comparison shows no spread, so it cannot show it would catch a worsening of ${must}`
      : `can detect a worsening of ${amountText(metric, power.mde)} at 80% power but must detect ${must}`;
  return `${sees}${power?.instancesNeeded ? `: ${settleWords(power, power.instancesNeeded, samples)}` : ''}`;
}

/** The instances, or samples per example, that would settle an inconclusive check. */
function settleWords(power: NonNullable<CheckRow['power']>, instances: number, samples: number): string {
  if (power.samplesNeeded) {
    return `about ${instances} shared instances, or ${power.samplesNeeded} samples per example at today's instances, would settle it (evalgate plan sizes both)`;
  }
  if (power.samplesNote === SAMPLES_CANNOT_REACH) {
    return `only more instances would settle it, about ${instances} shared: more samples per example cannot (evalgate plan sizes the suite)`;
  }
  const more = samples > 1 ? ', or more samples per example (evalgate plan sizes both)' : ' (evalgate plan sizes the suite)';
  return `about ${instances} shared instances would settle it${more}`;
}

/** How the gate's reason naming the most common failed call begins (gate/failures.ts). */
const FAILED_CALLS = 'the most common error of';

/**
 * Why a check blocks, warns or is inconclusive, in one line of plain words with units: the part that
 * failed (its bound, its comparison with the baseline), or what it can and must detect. A report
 * without the significance it was judged at (an older one) gives the gate's own reasons.
 */
export function findingWords(check: CheckRow, report: GateReport, escape: Escape, strong: Escape = (text) => text): string {
  const alpha = typeof report.policy.significance === 'number' ? report.policy.significance : undefined;
  const name = `${strong(escape(check.metric))} (${escape(shownScope(check))}) ${STATUS_WORDS[check.status].verb}`;
  if (check.status === 'inconclusive' && !didNotRun(check)) {
    return `${name}: ${escape(inconclusiveWords(check, samplesPerExample(report)))}`;
  }
  const bound = boundFailed(check, alpha);
  const regression = regressionFailed(check, alpha);
  const judged = check.status === 'fail' || check.status === 'warn';
  if (!judged || !check.limits || (bound === undefined && regression === undefined) || (!bound && !regression)) {
    return `${name}: ${escape(check.reasons.join('; '))}`;
  }
  // A budget the gate could not compare (no baseline, or one without the metric) is said, not left out.
  const uncompared = check.limits.maxRegression !== undefined && !check.comparison;
  const parts = [
    ...(bound ? [escape(boundWords(check))] : []),
    ...(regression ? [regressionWords(check, escape)] : []),
    ...(uncompared ? [escape(`its budget was not compared: ${report.baseline ? 'the baseline cannot tell' : 'no baseline'}`)] : []),
    // Why calls failed, where failures decided (gate/failures.ts): the gate's own words.
    ...check.reasons.filter((reason) => reason.startsWith(FAILED_CALLS)).map(escape),
  ];
  return `${name}: ${parts.join('; ')}`;
}

/** The samples of each example the report knows of: the runs pooled (each run's records further samples). */
const samplesPerExample = (report: GateReport): number => report.evidence?.runs.length ?? 1;

/**
 * Which checks are error-controlled: the tests (regression and non-inferiority on paired comparisons,
 * lenient and strict bounds with a test) hold false alarms to the significance level, the blocking
 * ones together (settings.multiplicity); `point` bounds and comparisons of point estimates do not.
 * Names through `escape`.
 */
export function errorControlWords(report: GateReport, escape: Escape): string | undefined {
  const ran = report.checks.filter((check) => check.status !== 'off' && !didNotRun(check));
  const tests = ran.filter((check) => decidingP(check) !== undefined).length;
  const boundTests = ran.filter((check) => check.boundTest).length;
  const pointBounds = ran.filter(
    (check) => check.limits && (check.limits.min !== undefined || check.limits.max !== undefined) && !check.boundTest,
  );
  const summaries = ran.filter((check) => check.comparison?.method === 'summary').length;
  if (tests + boundTests + pointBounds.length + summaries === 0) return undefined;
  const { significance, multiplicity } = report.policy;
  const level = typeof significance === 'number' ? ` at ${Number((significance * 100).toPrecision(3))}%` : '';
  const family =
    multiplicity && multiplicity !== 'none' ? ` (${multiplicity === 'holm' ? 'Holm' : 'Bonferroni'} across the blocking tests)` : '';
  const testCounts = [tests && count(tests, 'comparison test'), boundTests && count(boundTests, 'bound test')].filter(Boolean);
  const controlled = tests + boundTests > 0 ? [escape(`Error-controlled${level}${family}: ${testCounts.join(', ')}`)] : [];
  const shown = pointBounds.slice(0, 5).map((check) => `${escape(check.metric)} ${escape(boundLimit(check))}`);
  const more = pointBounds.length > shown.length ? escape(` and ${pointBounds.length - shown.length} more`) : '';
  const uncontrolled = [
    ...(pointBounds.length > 0
      ? [
          `${escape(count(pointBounds.length, 'point bound'))} (${shown.join(', ')}${more}) ${escape(pointBounds.length === 1 ? 'judges an estimate' : 'judge an estimate')}`,
        ]
      : []),
    ...(summaries > 0 ? [escape(`${count(summaries, 'comparison')} of point estimates (a metrics file)`)] : []),
  ];
  const without =
    uncontrolled.length > 0
      ? [`${escape(controlled.length > 0 ? 'no error control' : 'No error control')}: ${uncontrolled.join('; ')}`]
      : [];
  return `${[...controlled, ...without].join('; ')}.`;
}

/** "≥ 70%" / "≤ 5%": a check's bounds alone. */
function boundLimit(check: CheckRow): string {
  const { min, max } = check.limits ?? {};
  return [min !== undefined ? `≥ ${valueText(check.metric, min)}` : '', max !== undefined ? `≤ ${valueText(check.metric, max)}` : '']
    .filter(Boolean)
    .join(' and ');
}

/** The columns of the collapsed details table: the tests, what each check can see, and the counts. */
export const DETAIL_HEADER = [
  'check',
  'baseline',
  'plain value (95% CI)',
  'p-values',
  'can detect (80%)',
  'must detect',
  'counts',
  'flags',
];
export const DETAIL_ALIGN = ['l', 'r', 'r', 'l', 'r', 'r', 'l', 'l'];

/** A check's details under DETAIL_HEADER, as plain text (the caller escapes every cell). */
export function detailCells(check: CheckRow): string[] {
  const { metric, comparison, candidate, power } = check;
  const deciding = decidingP(check);
  const test = check.boundTest;
  const pValues = [
    ...(deciding ? [`${deciding.kind} ${pText(deciding.p, deciding.adjusted)}`] : []),
    ...(test ? [`bound (${test.claim}) ${pText(test.p, test.pAdjusted)}`] : []),
  ];
  const counts = [
    ...(comparison?.shared !== undefined ? [`${comparison.shared} shared instances`] : []),
    ...(candidate ? [`n ${candidate.n}`] : []),
  ];
  return [
    `${metric} (${shownScope(check)})`,
    comparison ? valueText(metric, comparison.baseline) : '-',
    candidate ? `${valueText(metric, candidate.value)}${candidate.ci ? ` ${valueIntervalText(metric, candidate.ci)}` : ''}` : '-',
    pValues.join('; ') || '-',
    power ? (power.mde === null ? 'unknown' : amountText(metric, power.mde)) : '-',
    power?.detect !== null && power?.detect !== undefined
      ? `${amountText(metric, power.detect)}${power.detectFrom === 'default' ? ' (default)' : ''}`
      : '-',
    counts.join(', ') || '-',
    (check.flags ?? []).join(', ') || '-',
  ];
}

/** The columns of the one table of the gated checks. */
export const CHECK_TABLE_HEADER = ['status', 'check (scope)', 'candidate (95% CI)', 'change vs baseline (95% CI)', 'limit'];
