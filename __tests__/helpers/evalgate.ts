import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess, type RunResult } from './run.js';

/** The example suite's keyword "model", speaking the command protocol. */
export const TOY_MODEL = `command:node ${join(process.cwd(), 'examples/billing/suite/toy-model.mjs')}`;

/** Runs the bundled CLI (dist/cli.js) to its end. */
export function evalgate(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  return runProcess(process.execPath, ['dist/cli.js', ...args], env);
}

export function readJsonLines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Writes a one-scenario suite (suite.yml) over the given instances (data.jsonl) in `dir`; returns the suite's path. */
export function writeSuite(dir: string, instances: object[], scenario = 'scorer: exact_match'): string {
  writeFileSync(join(dir, 'data.jsonl'), instances.map((instance) => JSON.stringify(instance)).join('\n') + '\n');
  writeFileSync(
    join(dir, 'suite.yml'),
    `version: 1\nname: test\nscenarios:\n  - name: s\n    data: data.jsonl\n    ${scenario.split('\n').join('\n    ')}\n`,
  );
  return join(dir, 'suite.yml');
}

/** `evalgate run` of a suite against an OpenAI-compatible endpoint (model "m"), writing `out`; `extra` flags follow. */
export function runAgainst(url: string, suite: string, out: string, extra: string[] = [], env?: NodeJS.ProcessEnv): Promise<RunResult> {
  return evalgate(['run', '--suite', suite, '--model', 'openai:m', '--base-url', url, '--out', out, ...extra], env);
}
