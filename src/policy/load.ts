import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { linesOf, parseYamlConfig, type Path, type Reporter } from '../config/yaml-config.js';
import { ConfigError } from '../errors.js';
import { builtinChecks } from './builtin.js';
import { familiesOf, minimumResamples, testOf } from './family.js';
import { closest } from '../config/suggest.js';
import { formatMetricName, groupKindOf, parseMetricName, scopeLabel, scopeOf } from '../metrics/names.js';
import { lookupMetric, METRICS } from '../metrics/registry.js';
import { policySchema, type Budget, type Policy } from './schema.js';
import { formatWarnings } from './warnings.js';

export interface LoadedPolicy {
  policy: Policy;
  /** The path as given, for messages and the report. */
  file: string;
  /** sha256 of the file's bytes: which exact policy decided. */
  sha256: string;
  /** The line of each check in the file (policy.checks' order), for annotations that point at it. */
  checkLines: Array<number | undefined>;
  /** What the file still says in a deprecated way, each at its file and line, with how to migrate (the policy is read all the same): every command prints them. */
  warnings: string[];
  /** What the policy may not mean, "file:line key.path: message" each (policy/warnings.ts): `validate` prints them. */
  advice: string[];
}

/** The deprecated keys a policy uses, each with its file and line and how to migrate. */
function deprecations(policy: Policy, text: string, file: string): string[] {
  const { power, inconclusive } = policy.settings;
  if (power === undefined) return [];
  const [line] = linesOf(text, [['settings', 'power']]);
  const read =
    power === 'off' ? 'read as inconclusive: warn (the inconclusive status cannot be turned off)' : `read as inconclusive: ${power}`;
  const how = `${file}:${line ?? 1} settings.power is deprecated: write settings.inconclusive: warn | block instead`;
  return [`${how}${inconclusive !== undefined && inconclusive !== power ? `; ignored, settings.inconclusive is set` : `; ${read}`}`];
}

const ESCAPING = "in a group's attribute and value write % as %25, : as %3A and = as %3D, or name it with group: {attribute, value}";

/** What `family:rest` may have meant: itself when it reads, else its group's parts escaped where they can be told apart. */
function meantName(family: string, rest: string): string | undefined {
  if (parseMetricName(`${family}:${rest}`)) return `${family}:${rest}`;
  const [attribute, value, ...more] = rest.split('=');
  return rest.includes('%') || more.length > 0 || (groupKindOf(family) === 'value') !== (value !== undefined)
    ? undefined
    : formatMetricName({ family, group: { attribute, value } });
}

/** A per-group family's name not written as metrics/names.ts writes it, and the name it may have meant. */
function malformedGroupName(family: string, rest: string): string {
  const meant = meantName(family, rest);
  const form = METRICS.find((metric) => metric.name === family)?.pattern;
  return `malformed metric name "${family}:${rest}"${meant ? ` (did you mean ${meant}?)` : ''}: the form is ${form}; ${ESCAPING}`;
}

/** Whether a name starts with a per-group family and ':' (worst_group_accuracy:..., group_accuracy:...). */
function namesGroup(name: string): boolean {
  const colon = name.indexOf(':');
  return colon >= 0 && groupKindOf(name.slice(0, colon)) !== undefined;
}

/** "unknown metric" with a suggestion, or undefined for a metric the registry knows. */
function metricProblem(name: string): string | undefined {
  if (lookupMetric(name)) return undefined;
  const colon = name.indexOf(':');
  const [base, rest] = colon < 0 ? [name, ''] : [name.slice(0, colon), name.slice(colon + 1)];
  if (namesGroup(name)) return malformedGroupName(base, rest);
  const suggestion = closest(
    base,
    METRICS.map((metric) => metric.name),
  );
  const family = suggestion && groupKindOf(suggestion) ? (rest ? meantName(suggestion, rest) : `${suggestion}:<attr>`) : suggestion;
  const custom = 'or, for a metric from another tool, give its direction: higher | lower';
  if (family && family !== name) return `unknown metric "${name}" (did you mean ${family}?)`;
  return `unknown metric "${name}"; known: ${METRICS.map((metric) => metric.pattern).join(', ')}; ${custom}`;
}

/** What is wrong with a term's `group` for its metric, and where; undefined when nothing is (or zod reports its type). */
function groupProblem(metric: unknown, attribute: unknown, value: unknown): { at: Path; message: string } | undefined {
  if (typeof metric !== 'string' || typeof attribute !== 'string') return undefined;
  const kind = groupKindOf(metric);
  if (!kind) {
    const named = metric.includes(':') && groupKindOf(metric.slice(0, metric.indexOf(':')));
    const message = named
      ? `${metric} names its group already: give it in metric or in group, not both`
      : `${metric} has no group (group goes with worst_group_accuracy, group_accuracy_gap, group_accuracy)`;
    return { at: ['group'], message };
  }
  if (kind === 'value' && value === undefined) return { at: ['group'], message: `${metric} is one group's accuracy: give its value too` };
  if (kind === 'attribute' && value !== undefined) return { at: ['group', 'value'], message: `${metric} takes an attribute, no value` };
  return undefined;
}

/**
 * Paths of every `metric` in a parsed (not yet validated) policy, with whether a direction is known
 * for it there: a metric evalgate does not know needs `direction` (on its check, or on the trade-off
 * term, or on a check of the same metric).
 */
function metricPaths(raw: unknown): Array<{ path: Path; directed: boolean }> {
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const record = (value: unknown): Record<string, unknown> =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const checks = list(record(raw).checks).map(record);
  const directed = new Set(checks.filter((check) => check.direction !== undefined).map((check) => check.metric));
  const paths = checks.map((check, index) => ({ path: ['checks', index, 'metric'] as Path, directed: check.direction !== undefined }));
  list(record(raw).tradeoffs).forEach((tradeoff, index) => {
    for (const side of ['allow', 'when']) {
      list(record(tradeoff)[side])
        .map(record)
        .forEach((term, termIndex) => {
          paths.push({
            path: ['tradeoffs', index, side, termIndex, 'metric'],
            directed: term.direction !== undefined || directed.has(term.metric),
          });
        });
    }
  });
  return paths;
}

/** A trade-off's allowance must have a budgeted check to relax. */
function checkTradeoffTargets(policy: Policy, report: Reporter): void {
  policy.tradeoffs.forEach((tradeoff, index) => {
    tradeoff.allow.forEach((term, termIndex) => {
      const relaxed = policy.checks.some(
        (check) => check.metric === term.metric && check.scenario === term.scenario && check.max_regression !== undefined,
      );
      if (!relaxed) {
        report(
          ['tradeoffs', index, 'allow', termIndex],
          `no check of ${term.metric} (${scopeLabel(scopeOf(term.scenario))}) with a max_regression for this trade-off to relax`,
        );
      }
    });
  });
}

/** A direction stated for a metric evalgate knows must be its own (it would be ignored otherwise). */
function checkDirections(policy: Policy, report: Reporter): void {
  const check = (metric: string, direction: string | undefined, path: Path) => {
    const known = lookupMetric(metric);
    if (known && direction !== undefined && direction !== known.direction) {
      report(
        path,
        `${metric} is better ${known.direction}: direction ${direction} contradicts it (leave direction out for a metric evalgate knows)`,
      );
    }
  };
  policy.checks.forEach((entry, index) => check(entry.metric, entry.direction, ['checks', index, 'direction']));
  policy.tradeoffs.forEach((tradeoff, index) =>
    tradeoff.when.forEach((term, termIndex) => check(term.metric, term.direction, ['tradeoffs', index, 'when', termIndex, 'direction'])),
  );
}

/** `detect` must be above the budget (a check cannot be asked to catch what it allows); compared when both are in one unit. */
function checkDetect(policy: Policy, report: Reporter): void {
  const percent = (budget: Budget) => typeof budget === 'string';
  policy.checks.forEach((check, index) => {
    const { detect, max_regression: budget } = check;
    if (detect !== undefined && testOf(check, policy) === 'non-inferiority') {
      report(['checks', index, 'detect'], 'detect applies to the regression test: a non-inferiority check shows its claim or fails');
      return;
    }
    if (detect === undefined || budget === undefined || percent(detect) !== percent(budget)) return;
    if (Number.parseFloat(String(detect)) <= Number.parseFloat(String(budget))) {
      report(['checks', index, 'detect'], `detect ${detect} must be above the check's max_regression ${budget}`);
    }
  });
}

/** The built-in tests among a family's, in words. */
function builtinNamed(policy: Policy, judged: boolean): string {
  const names = builtinChecks(policy, judged).map((check) =>
    check.metric === 'error_rate' ? 'the built-in failure-rate test' : "the built-in test of the judge's unknown verdicts",
  );
  return names.length === 0 ? '' : names.length === 1 ? `, one of them ${names[0]}` : `, among them ${names.join(' and ')}`;
}

/** Enough resamples for every test to reach its (corrected) level; `judged`: a judged suite's runs, whose gate tests the judge's unknown verdicts too. */
function checkResamples(policy: Policy, report: Reporter, judged: boolean): void {
  const needed = minimumResamples(policy, judged);
  if (needed === undefined || policy.settings.resamples >= needed) return;
  const { block, warn } = familiesOf(policy, true, judged);
  const tests = Math.max(block.length, warn.length, 1);
  // The built-in rate tests join the blocking family at a gate against a records baseline.
  const builtin = block.length >= warn.length ? builtinNamed(policy, judged) : '';
  report(
    ['settings', 'resamples'],
    `${policy.settings.resamples} resamples cannot reach significance ${policy.settings.significance}` +
      `${policy.settings.multiplicity === 'none' || tests === 1 ? '' : ` over ${tests} tests (${policy.settings.multiplicity}${builtin})`}: ` +
      `a p-value is at least 1/(resamples + 1); use at least ${needed}`,
  );
}

/**
 * Validates a policy's text. Throws a ConfigError listing every problem with its line and column.
 * `judged`: the policy gates a judged suite's runs (`validate --suite`), whose gate tests the judge's
 * unknown verdicts in the blocking family too.
 */
export function parsePolicy(text: string, file: string, { judged = false }: { judged?: boolean } = {}): LoadedPolicy {
  const policy = parseYamlConfig(text, file, policySchema, {
    // Metric names are checked on the raw data too, so that one run reports every problem.
    raw: (raw, value, report) => {
      for (const { path, directed } of metricPaths(raw)) {
        const [name, term] = [value(path), path.slice(0, -1)];
        if (value([...term, 'group']) !== undefined) {
          const problem = groupProblem(name, value([...term, 'group', 'attribute']), value([...term, 'group', 'value']));
          if (problem) report([...term, ...problem.at], problem.message);
          continue; // a metric with a group is a family's, and any other problem is in zod's words
        }
        // A direction makes an unknown name a metric of another tool's, but never a malformed group's name.
        const checked = typeof name === 'string' && (!directed || namesGroup(name));
        const problem = checked ? metricProblem(name) : undefined;
        if (problem) report(path, problem);
      }
    },
    parsed: (parsed, report) => {
      checkTradeoffTargets(parsed, report);
      checkDirections(parsed, report);
      checkDetect(parsed, report);
      checkResamples(parsed, report, judged);
    },
  });
  const checkLines = linesOf(
    text,
    policy.checks.map((_, index) => ['checks', index]),
  );
  const sha256 = createHash('sha256').update(text).digest('hex');
  return { policy, file, sha256, checkLines, warnings: deprecations(policy, text, file), advice: formatWarnings(policy, file, text) };
}

export async function loadPolicy(file: string, options: { judged?: boolean } = {}): Promise<LoadedPolicy> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError([`${file}: ${code === 'ENOENT' ? 'no such file' : `cannot be read: ${(error as Error).message}`}`]);
  }
  return parsePolicy(text, file, options);
}
