import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from './helpers/run.js';
import { tempDir } from './helpers/records.js';

describe('dist/', () => {
  it('is the bundle of the current sources (run `npm run bundle` and commit dist/)', async () => {
    const fresh = tempDir();
    const result = await runProcess(process.execPath, ['scripts/bundle.mjs', fresh]);
    expect(result.stderr).toBe('');
    expect(readdirSync('dist').sort()).toEqual(readdirSync(fresh).sort());
    for (const file of readdirSync(fresh)) {
      const same = readFileSync(join(fresh, file), 'utf8') === readFileSync(join('dist', file), 'utf8');
      expect([file, same ? 'up to date' : 'stale']).toEqual([file, 'up to date']);
    }
  });
});

describe('examples/billing', () => {
  it('are exactly what the seeded generator writes', async () => {
    const fresh = tempDir();
    const result = await runProcess(process.execPath, ['examples/billing/generate.mjs', fresh]);
    expect(result.stderr).toBe('');
    for (const file of ['baseline.jsonl', 'candidate-a.jsonl', 'candidate-b.jsonl']) {
      const same = readFileSync(join(fresh, file), 'utf8') === readFileSync(join('examples/billing', file), 'utf8');
      expect([file, same]).toEqual([file, true]);
    }
  });
});
