import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importResults, writeImported } from '../src/importers/index.js';
import { gateRun } from '../src/pipeline/gate-run.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import { loadRun } from '../src/runs/load.js';
import { header, sample, writeEvalLog } from './helpers/inspect-logs.js';
import { tempDir } from './helpers/records.js';

/*
 * Imported judged records keep the judge's identity where the source has it (Inspect's model-graded
 * scores, promptfoo's model-graded assertions) as `provenance.scorer`, so that the gate refuses to
 * compare two imports graded by different judges, naming both, as it does evalgate's own runs.
 */

const POLICY = parsePolicy('version: 1\nname: judged\nchecks:\n  - metric: accuracy\n    max_regression: 0.05\n', 'judged.yml');

/** Imports both files in `format`, gates the candidate against the baseline: the accuracy check's status and reasons. */
async function gateImports(format: 'inspect' | 'promptfoo', candidateFile: string, baselineFile: string) {
  const dir = tempDir();
  const runs = [];
  for (const [name, file] of [
    ['candidate', candidateFile],
    ['baseline', baselineFile],
  ]) {
    const out = join(dir, `${name}.jsonl`);
    await writeImported(out, await importResults(format, file));
    runs.push(await loadRun(out));
  }
  const report = await gateRun({ policy: POLICY, candidate: runs[0], baseline: runs[1] });
  const accuracy = report.checks.find((check) => check.metric === 'accuracy')!;
  return { status: accuracy.status, reason: accuracy.reasons.join(' ') };
}

const recordsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as EvalRecord);

/** An Inspect log of 30 samples graded by `scorer` (with `params`), every second one "C". */
function inspectLog(dir: string, name: string, scorer: string, params: Record<string, unknown>, roles?: Record<string, unknown>): string {
  const ids = Array.from({ length: 30 }, (_, index) => index + 1);
  const logHeader = {
    ...header('answers', { sampleIds: ids }),
    results: { scores: [{ name: scorer, scorer, params, metrics: { accuracy: { name: 'accuracy', value: 0.5 } } }] },
  };
  if (roles) Object.assign(logHeader.eval, { model_roles: roles });
  const samples = ids.map((id) => [`samples/${id}_epoch_1.json`, JSON.stringify(sample(id, 1, { [scorer]: id % 2 ? 'C' : 'I' }))]);
  return writeEvalLog(join(dir, `${name}.eval`), [['header.json', JSON.stringify(logHeader)], ...(samples as Array<[string, string]>)]);
}

/** A promptfoo output of 30 tests, each asserted by `assertion` (with the test's options), every second one passed. */
function promptfooOutput(dir: string, name: string, assertion: Record<string, unknown>, options: Record<string, unknown> = {}): string {
  const results = Array.from({ length: 30 }, (_, index) => ({
    testIdx: index,
    promptIdx: 0,
    prompt: { raw: `question ${index}`, label: '{{question}}' },
    provider: { id: 'openai:chat:candidate', label: '' },
    response: { output: index % 2 ? 'refund' : 'deny' },
    success: index % 2 === 1,
    score: index % 2,
    failureReason: index % 2 ? 0 : 1,
    testCase: { vars: { question: `question ${index}` }, assert: [assertion], options },
    vars: { question: `question ${index}` },
  }));
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ evalId: name, results: { version: 3, results }, config: {} }));
  return file;
}

describe('imported judged records', () => {
  it("keep an Inspect model-graded score's scorer and judge model, and the gate refuses two judges, naming both", async () => {
    const dir = tempDir();
    const judgeA = inspectLog(dir, 'a', 'model_graded_qa', { model: 'openai/judge-a', template: 'T' });
    const judgeB = inspectLog(dir, 'b', 'model_graded_qa', { model: 'openai/judge-b', template: 'T' });
    const out = join(dir, 'a.jsonl');
    await writeImported(out, await importResults('inspect', judgeA));
    const scorer = recordsOf(out)[0].provenance?.scorer;
    expect(scorer).toMatch(/^judge source=inspect scorer=model_graded_qa model=openai\/judge-a params=[0-9a-f]{16}$/);

    const refused = await gateImports('inspect', judgeB, judgeA);
    expect(refused.status).toBe('error');
    expect(refused.reason).toContain(
      'the baseline was judged by "judge model=openai/judge-a ..." and the candidate by "judge model=openai/judge-b ..."',
    );
    // The same judge on both sides: compared.
    expect(
      (await gateImports('inspect', judgeA, inspectLog(dir, 'a2', 'model_graded_qa', { model: 'openai/judge-a', template: 'T' }))).status,
    ).not.toBe('error');
  });

  it("names Inspect's default judge (the model under test, or the grader role) and the template's change", async () => {
    const dir = tempDir();
    const self = inspectLog(dir, 'self', 'model_graded_fact', {});
    const role = inspectLog(dir, 'role', 'model_graded_fact', {}, { grader: { model: 'anthropic/grader' } });
    const edited = inspectLog(dir, 'edited', 'model_graded_fact', { instructions: 'be strict' });
    const scorerOf = async (file: string) => {
      const out = join(dir, 'out.jsonl');
      await writeImported(out, await importResults('inspect', file));
      return recordsOf(out)[0].provenance?.scorer;
    };
    expect(await scorerOf(self)).toContain('model=mockllm/model graded_by=the_model_under_test');
    expect(await scorerOf(role)).toContain('model=anthropic/grader params=');
    expect(await scorerOf(edited)).not.toBe(await scorerOf(self));
    expect((await gateImports('inspect', edited, self)).status).toBe('error');
    // A scorer that is a function of the text carries no judge.
    expect(await scorerOf(inspectLog(dir, 'match', 'match', {}))).toBeUndefined();
  });

  it("keep promptfoo's llm-rubric grader, and the gate refuses two graders, naming both", async () => {
    const dir = tempDir();
    const rubric = { type: 'llm-rubric', value: 'says refund' };
    const graderA = promptfooOutput(dir, 'a', { ...rubric, provider: 'openai:judge-a' });
    const graderB = promptfooOutput(dir, 'b', rubric, { provider: { id: 'openai:judge-b', config: { temperature: 0 } } });
    const out = join(dir, 'a.jsonl');
    await writeImported(out, await importResults('promptfoo', graderA));
    expect(recordsOf(out)[0].provenance?.scorer).toBe(
      'judge source=promptfoo assertions=llm-rubric model=openai:judge-a rubric_prompt=default',
    );

    const refused = await gateImports('promptfoo', graderB, graderA);
    expect(refused.status).toBe('error');
    expect(refused.reason).toContain(
      'the baseline was judged by "judge model=openai:judge-a ..." and the candidate by "judge model=openai:judge-b ..."',
    );
    // An edited grading prompt is another judge too; an `equals` assertion is none.
    const edited = promptfooOutput(dir, 'c', { ...rubric, provider: 'openai:judge-a' }, { rubricPrompt: 'Grade strictly: {{output}}' });
    expect((await gateImports('promptfoo', edited, graderA)).reason).toContain('rubric_prompt=');
    await writeImported(out, await importResults('promptfoo', promptfooOutput(dir, 'd', { type: 'equals', value: 'refund' })));
    expect(recordsOf(out)[0].provenance?.scorer).toBeUndefined();
  });
});
