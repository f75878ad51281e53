import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { record, tempDir, writeLines } from './helpers/records.js';
import { runProcess } from './helpers/run.js';

/** Runs the bundled action as the Actions runner does: inputs and file commands in the environment. */
async function runAction(inputs: Record<string, string>) {
  const workspace = tempDir();
  const files = { output: join(workspace, 'output.txt'), summary: join(workspace, 'summary.md') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const result = await runProcess(process.execPath, ['dist/index.js'], env);
  return { ...result, output: readFileSync(files.output, 'utf8'), summary: readFileSync(files.summary, 'utf8'), workspace };
}

describe('the bundled action (dist/index.js)', () => {
  it('writes the metrics to the job summary and the report output', async () => {
    const path = writeLines('records.jsonl', [
      record({ scenario: 'billing|x', id: '1', correct: 1 }),
      record({ scenario: 'billing|x', id: '2', correct: 0 }),
    ]);
    const result = await runAction({ candidate: path });
    expect(result.code).toBe(0);
    expect(result.summary).toContain('## evalgate metrics');
    expect(result.summary).toMatch(/\| accuracy +\| +0\.5 \| +\[0, 1\] \| +2 \| accuracy \(higher is better\)/);
    expect(result.summary).toContain('| error\\_rate |');
    // A scenario name is data: escaped before it goes into markdown.
    expect(result.summary).toContain('### scenario billing\\|x');
    const reportPath = join(result.workspace, 'evalgate-metrics.json');
    expect(result.output).toContain(reportPath);
    expect(JSON.parse(readFileSync(reportPath, 'utf8')).overall.accuracy.value).toBe(0.5);
  });

  it('fails the step with the file, line and field of bad input', async () => {
    const path = writeLines('records.jsonl', [record({ id: '1' }), { scenario: 's', id: '2', correct: 'yes' }]);
    const result = await runAction({ candidate: path });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`::error::${path}:2: "correct" must be a number in [0, 1], got "yes"`);
  });

  it('fails the step when the required input is missing', async () => {
    const result = await runAction({});
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('::error::Input required and not supplied: candidate');
  });
});
