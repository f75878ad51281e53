import { isAlias, isMap, LineCounter, parseDocument, visit, type Alias, type Document, type Node } from 'yaml';
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

/**
 * The alias to blame when the document cannot be turned into data: with `unresolved`, the first alias
 * of an anchor not set before it; else the first alias of a node that holds aliases itself (each such
 * level multiplies the values: an alias bomb, "billion laughs"). Aliases resolve as yaml resolves them:
 * to the last node before them with that anchor.
 */
function blamedAlias(document: Document, unresolved: boolean): Alias | undefined {
  const anchored = new Map<string, Node>();
  const holdsAlias = new Map<Node, boolean>();
  const holds = (node: Node) => {
    if (!holdsAlias.has(node)) {
      let found = false;
      visit(node, { Alias: () => ((found = true), visit.BREAK) });
      holdsAlias.set(node, found);
    }
    return holdsAlias.get(node)!;
  };
  let blamed: Alias | undefined;
  visit(document, {
    Node: (_key, node) => {
      if (!isAlias(node)) {
        if (node.anchor) anchored.set(node.anchor, node);
        return;
      }
      const source = anchored.get(node.source);
      if (unresolved ? source === undefined : source !== undefined && holds(source)) {
        blamed = node;
        return visit.BREAK;
      }
    },
  });
  return blamed;
}

/**
 * The document as data. yaml resolves aliases here, and stops (a ReferenceError) at an alias of nothing
 * or when aliases expand to more than 100 times the nodes they name (its maxAliasCount): a ConfigError
 * at the alias to blame, not a crash.
 */
function toData(document: Document, lineCounter: LineCounter, file: string): unknown {
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    const unresolved = error.message.startsWith('Unresolved alias');
    const alias = blamedAlias(document, unresolved);
    const { line, col } = alias?.range ? lineCounter.linePos(alias.range[0]) : { line: 1, col: 1 };
    const problem = unresolved
      ? `alias *${alias?.source ?? ''} names no anchor set before it`
      : 'aliases expand to too many values (an alias bomb?): this alias repeats a node that holds aliases; write the values out';
    throw new ConfigError([`${file}:${line}:${col} ${problem}`]);
  }
}

/** The line of each path's node in a configuration file's text (for annotations that point at it); undefined where there is none. */
export function linesOf(text: string, paths: Path[]): Array<number | undefined> {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  return paths.map((path) => (document.getIn(path, true) === undefined ? undefined : locate(document, lineCounter, path).line));
}

/** Parses and validates a YAML or JSON configuration file's text; throws a ConfigError with every problem. */
export function parseYamlConfig<T>(text: string, file: string, schema: z.ZodType<T>, checks: ConfigChecks<T> = {}): T {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      document.errors.map((error) => {
        const { line, col } = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
        // A document nested deeper than the parser's stack (RESOURCE_EXHAUSTION) says "Maximum call stack size exceeded".
        const message = error.code === 'RESOURCE_EXHAUSTION' ? 'nested too deeply to be read' : error.message.split('\n')[0];
        return `${file}:${line}:${col} ${message}`;
      }),
    );
  }
  const raw = toData(document, lineCounter, file);
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
