import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { lookupMetric, METRICS } from '../metrics/registry.js';
import { checkSchema, policySchema, settingsSchema, tradeoffSchema, type Policy } from './schema.js';
import { closest } from './suggest.js';

export interface LoadedPolicy {
  policy: Policy;
  /** The path as given, for messages and the report. */
  file: string;
  /** sha256 of the file's bytes: which exact policy decided. */
  sha256: string;
}

/** Every problem of a policy file, one line each: "file:line:col key.path: message". */
export class PolicyError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'PolicyError';
  }
}

type Path = Array<string | number>;

/** checks[1].max_regression */
export function formatPath(path: Path): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

/** The keys a policy allows at an object path, for "did you mean". */
function keysAt(path: Path): string[] {
  const shapeKeys = (schema: { shape: Record<string, unknown> }) => Object.keys(schema.shape);
  const names = path.filter((part) => typeof part === 'string');
  const last = names[names.length - 1];
  if (path.length === 0) return shapeKeys(policySchema);
  if (last === 'settings') return shapeKeys(settingsSchema);
  if (last === 'checks') return shapeKeys(checkSchema);
  if (last === 'tradeoffs') return shapeKeys(tradeoffSchema);
  if (last === 'allow') return ['metric', 'scenario', 'max_regression'];
  if (last === 'when') return ['metric', 'scenario', 'min_improvement'];
  return [];
}

/** Where a path is in the file (the key for a key, the value otherwise), 1-based; the deepest part that exists. */
function locate(document: Document, lineCounter: LineCounter, path: Path, key?: string): { line: number; col: number } {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = document.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (depth === path.length && key !== undefined && isMap(node)) {
      const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
      const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
      if (range) return lineCounter.linePos(range[0]);
    }
    if (node?.range) return lineCounter.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'invalid_type' && value === undefined) return `is required (${issue.expected})`;
  return issue.message.replace(/^Invalid input: /, '').replace(/^./, (first) => first.toLowerCase());
}

/** "unknown metric" with a suggestion, or undefined for a metric the registry knows. */
function metricProblem(name: string): string | undefined {
  if (lookupMetric(name)) return undefined;
  const [base, ...rest] = name.split(':');
  const suggestion = closest(base, METRICS.map((metric) => metric.name));
  const family = suggestion && lookupMetric(`${suggestion}:x`) ? `${suggestion}:${rest.join(':') || '<attr>'}` : suggestion;
  if (family && family !== name) return `unknown metric "${name}" (did you mean ${family}?)`;
  return `unknown metric "${name}"; known: ${METRICS.map((metric) => metric.pattern).join(', ')}`;
}

/** Problems sorted by line, then column. */
function inFileOrder(problems: string[]): string[] {
  const position = (problem: string) => {
    const [, line, col] = /:(\d+):(\d+) /.exec(problem) ?? [];
    return Number(line ?? 0) * 1e6 + Number(col ?? 0);
  };
  return [...problems].sort((a, b) => position(a) - position(b));
}

/** Paths of every `metric` in a parsed (not yet validated) policy. */
function metricPaths(raw: unknown): Path[] {
  const paths: Path[] = [];
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
  list(record(raw).checks).forEach((_, index) => paths.push(['checks', index, 'metric']));
  list(record(raw).tradeoffs).forEach((tradeoff, index) => {
    for (const side of ['allow', 'when']) list(record(tradeoff)[side]).forEach((_, termIndex) => paths.push(['tradeoffs', index, side, termIndex, 'metric']));
  });
  return paths;
}

/** Validates a policy's text. Throws a PolicyError listing every problem with its line and column. */
export function parsePolicy(text: string, file: string): LoadedPolicy {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (path: Path, key?: string) => {
    const { line, col } = locate(document, lineCounter, path, key);
    return `${file}:${line}:${col}`;
  };
  if (document.errors.length > 0) {
    throw new PolicyError(
      document.errors.map((error) => {
        const { line, col } = error.linePos?.[0] ?? { line: 1, col: 1 };
        return `${file}:${line}:${col} ${error.message.split('\n')[0]}`;
      }),
    );
  }
  const raw: unknown = document.toJS();
  if (raw === null || raw === undefined) throw new PolicyError([`${file}:1:1 the policy is empty`]);

  const problems: string[] = [];
  const parsed = policySchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path as Path;
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const suggestion = closest(key, keysAt(path));
          problems.push(`${at(path, key)} ${formatPath([...path, key])}: unknown key${suggestion ? ` (did you mean ${suggestion}?)` : ''}`);
        }
      } else {
        problems.push(`${at(path)} ${formatPath(path) || '(policy)'}: ${describeIssue(issue, document.getIn(path))}`);
      }
    }
  }
  // Metric names are checked on the raw data too, so that one run reports every problem.
  for (const path of metricPaths(raw)) {
    const name = document.getIn(path);
    const problem = typeof name === 'string' ? metricProblem(name) : undefined;
    if (problem) problems.push(`${at(path)} ${formatPath(path)}: ${problem}`);
  }
  if (problems.length > 0 || !parsed.success) throw new PolicyError(inFileOrder(problems));

  const policy = parsed.data;
  policy.tradeoffs.forEach((tradeoff, index) => {
    tradeoff.allow.forEach((term, termIndex) => {
      const relaxed = policy.checks.some((check) => check.metric === term.metric && check.scenario === term.scenario && check.max_regression !== undefined);
      if (!relaxed) {
        const path = ['tradeoffs', index, 'allow', termIndex];
        problems.push(`${at(path)} ${formatPath(path)}: no check of ${term.metric} (${term.scenario ?? 'overall'}) with a max_regression for this trade-off to relax`);
      }
    });
  });
  if (problems.length > 0) throw new PolicyError(problems);
  return { policy, file, sha256: createHash('sha256').update(text).digest('hex') };
}

export async function loadPolicy(file: string): Promise<LoadedPolicy> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PolicyError([`${file}: ${code === 'ENOENT' ? 'no such file' : `cannot be read: ${(error as Error).message}`}`]);
  }
  return parsePolicy(text, file);
}
