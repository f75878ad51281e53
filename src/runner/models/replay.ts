import { describeKey, duplicateExample, exampleKey, exampleOf } from '../../records/key.js';
import { forEachRecord } from '../../records/read.js';
import { AdapterError, type ModelAdapter } from './types.js';

/** `replay:RECORDS.jsonl`: the completions stored in an earlier records file, scored again; each sample of an example its own. */
export async function replayAdapter(file: string): Promise<ModelAdapter> {
  const stored = new Map<string, { prediction?: string; error?: string; record: Record<string, unknown>; line: number }>();
  await forEachRecord(file, (record, line) => {
    const key = exampleKey(exampleOf(record));
    const earlier = stored.get(key);
    if (earlier) throw duplicateExample(file, line, key, earlier.line);
    stored.set(key, { prediction: record.prediction, error: record.error, record, line });
  });
  return {
    id: `replay:${file}`,
    model: file,
    secrets: [],
    stored: true,
    async complete(request) {
      const key = exampleKey(request);
      const found = stored.get(key);
      if (!found) throw new AdapterError(`no completion stored in ${file} for ${describeKey(key)}`, false);
      if (found.prediction === undefined) throw new AdapterError(found.error ?? `the stored record has no prediction`, false);
      const number = (name: string) => (typeof found.record[name] === 'number' ? (found.record[name] as number) : undefined);
      return {
        text: found.prediction,
        inputTokens: number('input_tokens'),
        outputTokens: number('output_tokens'),
        confidence: number('confidence'),
        latencyMs: number('latency_ms'),
        costUsd: number('cost_usd'),
      };
    },
    async close() {},
  };
}
