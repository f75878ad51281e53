import { InputError } from '../errors.js';
import { forEachRecord } from '../records/read.js';
import type { EvalRecord } from '../records/types.js';
import { describeKey, exampleKey, exampleOf, parseKey } from '../records/key.js';

/**
 * Combines the records files of shards into one. A duplicate example (or sample of one) is an error;
 * with the keys the suite expects, so is a missing or an unexpected one, and the result comes in the
 * suite's order. A
 * shard may be empty (a suite with fewer instances than shards), but not all of them.
 */
export async function mergeShards(files: string[], expected?: string[]): Promise<EvalRecord[]> {
  const byKey = new Map<string, EvalRecord>();
  for (const file of files) {
    await forEachRecord(
      file,
      (record, line) => {
        const key = exampleKey(exampleOf(record));
        if (byKey.has(key)) {
          throw new InputError(file, line, `${describeKey(key)} is already in another shard (or twice in this one)`);
        }
        byKey.set(key, record);
      },
      file,
      { allowEmpty: true },
    );
  }
  if (byKey.size === 0) throw new InputError(files.join(', '), undefined, 'no records: every shard is empty');
  if (!expected) return [...byKey.values()];
  const missing = expected.filter((key) => !byKey.has(key));
  const wanted = new Set(expected);
  const unexpected = [...byKey.keys()].filter((key) => !wanted.has(key));
  if (missing.length > 0 || unexpected.length > 0) {
    const list = (keys: string[]) =>
      keys.slice(0, 5).map(describeKey).join(', ') + (keys.length > 5 ? `, and ${keys.length - 5} more` : '');
    const samplesHint = unexpected.some((key) => parseKey(key).sample) ? ': give merge the --samples the shards ran with' : '';
    const problems = [
      missing.length > 0 && `${missing.length} examples of the suite are in no shard (${list(missing)})`,
      unexpected.length > 0 && `${unexpected.length} records are not in the suite (${list(unexpected)})${samplesHint}`,
    ];
    throw new InputError(files.join(', '), undefined, problems.filter(Boolean).join('; '));
  }
  return expected.map((key) => byKey.get(key)!);
}
