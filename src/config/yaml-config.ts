import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { closest } from './suggest.js';

/*
 * Configuration files (policies, suites) are YAML or JSON validated by a zod schema. Every problem is
 * reported at once, each as "file:line:col key.path: message", with a suggestion for a misspelt key.
 */

export type Path = Array<string | number>;

/** checks[1].max_regression */
export function formatPath(path: Path): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

interface SchemaDefinition {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
}

const definitionOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: SchemaDefinition } })._zod.def;

/** The object schema at a path of the data (through arrays, optionals and defaults), if any. */
function objectSchemaAt(schema: z.ZodType, path: Path): Record<string, z.ZodType> | undefined {
  let current: z.ZodType | undefined = schema;
  const unwrap = () => {
    for (;;) {
      const definition: SchemaDefinition | undefined = current && definitionOf(current);
      const inner = definition?.innerType ?? definition?.in;
      if (!inner) return;
      current = inner;
    }
  };
  for (const part of path) {
    unwrap();
    const step: SchemaDefinition | undefined = current && definitionOf(current);
    if (!step) return undefined;
    current = typeof part === 'number' ? step.element : step.shape?.[part];
  }
  unwrap();
  const last: SchemaDefinition | undefined = current && definitionOf(current);
  return last?.type === 'object' ? last.shape : undefined;
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

function inFileOrder(problems: string[]): string[] {
  const position = (problem: string) => {
    const [, line, col] = /:(\d+):(\d+) /.exec(problem) ?? [];
    return Number(line ?? 0) * 1e6 + Number(col ?? 0);
  };
  return [...problems].sort((a, b) => position(a) - position(b));
}

/** Reports a problem at a path: `problem(path, message)`. */
export type Reporter = (path: Path, message: string) => void;

export interface ConfigChecks<T> {
  /** Checks on the raw data, run whether or not the schema accepted it (so that one run reports all). */
  raw?: (raw: unknown, value: (path: Path) => unknown, report: Reporter) => void;
  /** Checks on the validated data. */
  parsed?: (parsed: T, report: Reporter) => void;
}

/** Parses and validates a YAML or JSON configuration file's text; throws a ConfigError with every problem. */
export function parseYamlConfig<T>(text: string, file: string, schema: z.ZodType<T>, checks: ConfigChecks<T> = {}): T {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      document.errors.map((error) => {
        const { line, col } = error.linePos?.[0] ?? { line: 1, col: 1 };
        return `${file}:${line}:${col} ${error.message.split('\n')[0]}`;
      }),
    );
  }
  const raw: unknown = document.toJS();
  if (raw === null || raw === undefined) throw new ConfigError([`${file}:1:1 the file is empty`]);

  const problems: string[] = [];
  const report: Reporter = (path, message) => {
    const { line, col } = locate(document, lineCounter, path);
    problems.push(`${file}:${line}:${col} ${formatPath(path) || '(top level)'}: ${message}`);
  };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path as Path;
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const suggestion = closest(key, Object.keys(objectSchemaAt(schema, path) ?? {}));
          const { line, col } = locate(document, lineCounter, path, key);
          problems.push(
            `${file}:${line}:${col} ${formatPath([...path, key])}: unknown key${suggestion ? ` (did you mean ${suggestion}?)` : ''}`,
          );
        }
      } else {
        report(path, describeIssue(issue, document.getIn(path)));
      }
    }
  }
  checks.raw?.(raw, (path) => document.getIn(path), report);
  if (problems.length === 0 && parsed.success) checks.parsed?.(parsed.data, report);
  if (problems.length > 0 || !parsed.success) throw new ConfigError(inFileOrder(problems));
  return parsed.data;
}
