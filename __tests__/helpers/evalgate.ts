import { expect } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './records.js';
import { runProcess, type RunResult } from './run.js';

/** The example suite's keyword "model", speaking the command protocol. */
export const TOY_MODEL = `command:node ${join(process.cwd(), 'examples/billing/suite/toy-model.mjs')}`;

/** Runs the bundled CLI (dist/cli.js) to its end. */
export function evalgate(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  return runProcess(process.execPath, ['dist/cli.js', ...args], env);
}

/** The reports a gate writes, by flag (`markdown`: --markdown FILE), and any further flags. */
export interface GateFlags {
  json?: string;
  markdown?: string;
  html?: string;
  extra?: string[];
}

/** The arguments of `evalgate gate` of a candidate against a baseline under a policy, writing the reports given. */
export function gateArgs(
  policy: string,
  candidate: string,
  baseline: string,
  { json, markdown, html, extra = [] }: GateFlags = {},
): string[] {
  const reports = Object.entries({ json, markdown, html }).flatMap(([flag, file]) => (file === undefined ? [] : [`--${flag}`, file]));
  return ['gate', '--policy', policy, '--candidate', candidate, '--baseline', baseline, ...reports, ...extra];
}

/**
 * The bundled `evalgate gate` of a candidate against a baseline, its markdown and JSON reports (and
 * the HTML page, with `html`) written into a fresh folder: their texts, and the page's path. Anything on
 * stderr fails the test.
 */
export async function gateReports(
  policy: string,
  candidate: string,
  baseline: string,
  { html = false } = {},
): Promise<{ markdown: string; json: string; htmlFile: string }> {
  const dir = tempDir();
  const [htmlFile, markdown, json] = ['report.html', 'comment.md', 'report.json'].map((file) => join(dir, file));
  const result = await evalgate(gateArgs(policy, candidate, baseline, { markdown, json, html: html ? htmlFile : undefined }));
  expect(result.stderr).toBe('');
  return { markdown: readFileSync(markdown, 'utf8'), json: readFileSync(json, 'utf8'), htmlFile };
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

/** A terminal report with its wrapped lines joined again (each piece after the first starts with more spaces), to find a phrase in it. */
export function unwrapped(text: string): string {
  return text.replace(/\n {4,}(?=\S)/g, ' ');
}
