import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalgate, TOY_MODEL, writeSuite } from './helpers/evalgate.js';
import { tempDir } from './helpers/records.js';

/* evalgate merge with more shards than the suite has instances (the README's matrix on a small suite). */

describe('evalgate merge', () => {
  it('accepts empty shards, and still finds gaps with --suite', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [
      { id: 'a', input: 'I was charged twice', references: ['refund'] },
      { id: 'b', input: 'hello', references: ['deny'] },
    ]);
    const cache = join(dir, 'cache');
    expect(
      (await evalgate(['run', '--suite', suite, '--model', TOY_MODEL, '--out', join(dir, 'all.jsonl'), '--cache-dir', cache])).code,
    ).toBe(0);
    const shards = ['1', '2', '3', '4'].map((index) => join(dir, `shard-${index}.jsonl`));
    for (const [index, shard] of shards.entries()) {
      expect(
        (await evalgate(['run', '--suite', suite, '--model', TOY_MODEL, '--out', shard, '--cache-dir', cache, '--shard', `${index + 1}/4`]))
          .code,
      ).toBe(0);
    }
    const empty = shards.filter((shard) => readFileSync(shard, 'utf8').trim() === '');
    expect(empty.length).toBeGreaterThanOrEqual(2); // two instances, four shards

    const merged = await evalgate(['merge', '--suite', suite, '--out', join(dir, 'merged.jsonl'), ...shards]);
    expect(merged.code).toBe(0);
    expect(readFileSync(join(dir, 'merged.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'all.jsonl'), 'utf8'));

    // A missing record is still a gap; shards that are all empty are no result.
    writeFileSync(join(dir, 'partial.jsonl'), readFileSync(join(dir, 'all.jsonl'), 'utf8').split('\n').slice(1).join('\n'));
    const gap = await evalgate(['merge', '--suite', suite, '--out', join(dir, 'gap.jsonl'), join(dir, 'partial.jsonl'), ...empty]);
    expect(gap.code).toBe(2);
    expect(gap.stderr).toContain('1 examples of the suite are in no shard (s/a)');
    const nothing = await evalgate(['merge', '--out', join(dir, 'nothing.jsonl'), ...empty]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('no records: every shard is empty');
    // Only merge accepts an empty file.
    const metrics = await evalgate(['metrics', empty[0]]);
    expect(metrics.code).toBe(2);
    expect(metrics.stderr).toContain('no records: the file is empty');
  });
});
