import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSuite } from '../src/runner/suite.js';
import { evalgate, readJsonLines, writeSuite } from './helpers/evalgate.js';
import { tempDir } from './helpers/records.js';

/* Suite problems are found when the suite loads, with their file and line, before any model is asked. */

/** A model command that leaves a file behind when it starts, and answers "refund". */
function markingModel(dir: string): { spec: string; started: string } {
  const started = join(dir, 'model-started');
  writeFileSync(
    join(dir, 'model.mjs'),
    `import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
writeFileSync(${JSON.stringify(started)}, '');
createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(JSON.stringify({ id: JSON.parse(line).id, text: 'refund' }) + '\\n'));
`,
  );
  return { spec: `command:node ${join(dir, 'model.mjs')}`, started };
}

describe('loading a suite', () => {
  it('rejects a regex scorer whose pattern does not compile, naming the suite file and line', async () => {
    const dir = tempDir();
    const suite = writeSuite(
      dir,
      [{ id: 'q', input: 'x', references: ['refund'] }],
      'scorer: regex\nscorer_options: { pattern: "answer: (\\\\w+" }',
    );
    const model = markingModel(dir);
    const result = await evalgate(['run', '--suite', suite, '--model', model.spec, '--out', join(dir, 'out.jsonl'), '--no-cache']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `${suite.replace(/[.\\/]/g, '\\$&')}:7:\\d+ scenarios\\[0\\]\\.scorer_options\\.pattern: not a pattern the linear-time engine \\(RE2\\) reads: missing closing \\): \`answer: \\(\\\\w\\+\`\n`,
        'i',
      ),
    );
    expect(existsSync(model.started)).toBe(false);
    expect(existsSync(join(dir, 'out.jsonl'))).toBe(false);
  });

  it('reads a data file that starts with a byte order mark', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [{ id: 'q', input: 'x', references: ['refund'] }]);
    writeFileSync(join(dir, 'data.jsonl'), `\uFEFF${readFileSync(join(dir, 'data.jsonl'), 'utf8')}`);
    const result = await evalgate([
      'run',
      '--suite',
      suite,
      '--model',
      markingModel(dir).spec,
      '--out',
      join(dir, 'out.jsonl'),
      '--no-cache',
    ]);
    expect(result.code).toBe(0);
    expect(readJsonLines(join(dir, 'out.jsonl'))).toMatchObject([{ id: 'q', prediction: 'refund', correct: 1 }]);
  });

  it('rejects an instance with no reference, naming the data file and line', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [
      { id: 'q1', input: 'x', references: ['refund'] },
      { id: 'q2', input: 'y', references: [] },
    ]);
    const model = markingModel(dir);
    const result = await evalgate(['run', '--suite', suite, '--model', model.spec, '--out', join(dir, 'out.jsonl'), '--no-cache']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${dir}/data.jsonl:2: "references": needs at least one reference`);
    expect(existsSync(model.started)).toBe(false);
  });

  it('names a field an instance left out as missing, with the data file and line', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [
      { id: 'q1', input: 'x', references: ['refund'] },
      { id: 'q2', input: 'y' },
    ]);
    await expect(loadSuite(suite)).rejects.toThrow(`${dir}/data.jsonl:2: "references" is missing`);
    // A field given with the wrong type is not called missing.
    writeSuite(dir, [{ id: 'q1', input: 'x', references: 5 }]);
    await expect(loadSuite(suite)).rejects.toThrow(`${dir}/data.jsonl:1: "references": must be a string or an array of strings`);
    writeSuite(dir, [{ input: 'x', references: ['a'] }]);
    await expect(loadSuite(suite)).rejects.toThrow(`${dir}/data.jsonl:1: "id" is missing`);
  });
});
