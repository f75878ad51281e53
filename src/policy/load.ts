import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseYamlConfig, type Path } from '../config/yaml-config.js';
import { ConfigError } from '../errors.js';
import { closest } from '../config/suggest.js';
import { lookupMetric, METRICS } from '../metrics/registry.js';
import { policySchema, type Policy } from './schema.js';

export interface LoadedPolicy {
  policy: Policy;
  /** The path as given, for messages and the report. */
  file: string;
  /** sha256 of the file's bytes: which exact policy decided. */
  sha256: string;
}

/** "unknown metric" with a suggestion, or undefined for a metric the registry knows. */
function metricProblem(name: string): string | undefined {
  if (lookupMetric(name)) return undefined;
  const [base, ...rest] = name.split(':');
  const suggestion = closest(
    base,
    METRICS.map((metric) => metric.name),
  );
  const family = suggestion && lookupMetric(`${suggestion}:x`) ? `${suggestion}:${rest.join(':') || '<attr>'}` : suggestion;
  const custom = 'or, for a metric from another tool, give its direction: higher | lower';
  if (family && family !== name) return `unknown metric "${name}" (did you mean ${family}?)`;
  return `unknown metric "${name}"; known: ${METRICS.map((metric) => metric.pattern).join(', ')}; ${custom}`;
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

/** Validates a policy's text. Throws a PolicyError listing every problem with its line and column. */
export function parsePolicy(text: string, file: string): LoadedPolicy {
  const policy = parseYamlConfig(text, file, policySchema, {
    // Metric names are checked on the raw data too, so that one run reports every problem.
    raw: (raw, value, report) => {
      for (const { path, directed } of metricPaths(raw)) {
        const name = value(path);
        const problem = typeof name === 'string' && !directed ? metricProblem(name) : undefined;
        if (problem) report(path, problem);
      }
    },
    parsed: (parsed, report) => {
      parsed.tradeoffs.forEach((tradeoff, index) => {
        tradeoff.allow.forEach((term, termIndex) => {
          const relaxed = parsed.checks.some(
            (check) => check.metric === term.metric && check.scenario === term.scenario && check.max_regression !== undefined,
          );
          if (!relaxed) {
            report(
              ['tradeoffs', index, 'allow', termIndex],
              `no check of ${term.metric} (${term.scenario ?? 'overall'}) with a max_regression for this trade-off to relax`,
            );
          }
        });
      });
    },
  });
  return { policy, file, sha256: createHash('sha256').update(text).digest('hex') };
}

export async function loadPolicy(file: string): Promise<LoadedPolicy> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError([`${file}: ${code === 'ENOENT' ? 'no such file' : `cannot be read: ${(error as Error).message}`}`]);
  }
  return parsePolicy(text, file);
}
