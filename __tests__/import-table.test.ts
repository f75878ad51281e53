import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseColumnMap } from '../src/importers/index.js';
import { importCsv, importJsonl } from '../src/importers/table.js';
import { evalgate, readJsonLines } from './helpers/evalgate.js';
import { tempDir } from './helpers/records.js';

/*
 * What pandas writes for
 *
 *   df = pd.DataFrame({"question_id": ["q1", "q2", "q3", "q4"], "task": ["billing", "billing", "refunds", "refunds"],
 *                      "score": [1.0, 0.0, 0.5, nan], "dialect": ["aae", "sae", "aae", "sae"],
 *                      "answer": ["Refund, then close", 'He said "no"\nthen left', "line one\r\nline two", nan],
 *                      "latency_ms": [120.5, 98.0, 1e-05, 250.0], "tokens": [12, 30, 7, 0],
 *                      "error": [nan, nan, nan, "timeout"]})
 *   df.to_csv("results.csv", encoding="utf-8-sig")
 *
 * written out by hand, as pandas is not installed here: a byte order mark (utf-8-sig), the unnamed
 * index as the first column, floats as Python's repr, NaN as an empty cell, "\n" line ends, and
 * csv.writer's minimal quoting (a field with the separator, a quote or a line break is quoted, quotes
 * doubled). Python's csv.writer(lineterminator="\n"), which to_csv uses, gives these bytes exactly.
 */
const PANDAS_CSV =
  '\ufeff,question_id,task,score,dialect,answer,latency_ms,tokens,error\n' +
  '0,q1,billing,1.0,aae,"Refund, then close",120.5,12,\n' +
  '1,q2,billing,0.0,sae,"He said ""no""\nthen left",98.0,30,\n' +
  '2,q3,refunds,0.5,aae,"line one\r\nline two",1e-05,7,\n' +
  '3,q4,refunds,,sae,,250.0,0,timeout\n';

const MAP = ['id=question_id,scenario=task,correct=score,groups.dialect=dialect,prediction=answer', 'output_tokens=tokens'];

function writeFile(name: string, text: string): string {
  const file = join(tempDir(), name);
  writeFileSync(file, text);
  return file;
}

describe('importing a per-example CSV', () => {
  it('reads what pandas writes: the BOM, quoting, line breaks inside quotes, empty cells', async () => {
    const records = await importCsv(writeFile('results.csv', PANDAS_CSV), { ...parseColumnMap(MAP) });
    expect(records).toEqual([
      {
        scenario: 'billing',
        id: 'q1',
        correct: 1,
        prediction: 'Refund, then close',
        output_tokens: 12,
        groups: { dialect: 'aae' },
        latency_ms: 120.5,
      },
      {
        scenario: 'billing',
        id: 'q2',
        correct: 0,
        prediction: 'He said "no"\nthen left',
        output_tokens: 30,
        groups: { dialect: 'sae' },
        latency_ms: 98,
      },
      {
        scenario: 'refunds',
        id: 'q3',
        correct: 0.5,
        prediction: 'line one\r\nline two',
        output_tokens: 7,
        groups: { dialect: 'aae' },
        latency_ms: 0.00001,
      },
      // No score and an error: a failed call. latency_ms and error need no mapping: the columns have their names.
      { scenario: 'refunds', id: 'q4', output_tokens: 0, groups: { dialect: 'sae' }, latency_ms: 250, error: 'timeout' },
    ]);
  });

  it('names the file, the line where the row starts and the column of a bad cell', async () => {
    // q4's row starts on line 7: lines 3-4 and 5-6 are rows with a line break inside quotes.
    const bad = writeFile('results.csv', PANDAS_CSV.replace('3,q4,refunds,,sae,,250.0,0,timeout', '3,q4,refunds,1.5,sae,,250.0,0,'));
    await expect(importCsv(bad, { ...parseColumnMap(MAP) })).rejects.toThrow(
      `${bad}:7: "correct" must be a number in [0, 1], got 1.5 (column "score")`,
    );
    // A row with a line break inside quotes (q2, lines 3-4) is named by its first line.
    const negative = writeFile('results.csv', PANDAS_CSV.replace('98.0', '-1'));
    await expect(importCsv(negative, { ...parseColumnMap(MAP) })).rejects.toThrow(
      `${negative}:3: "latency_ms" must be a non-negative number, got -1 (column "latency_ms")`,
    );
    const words = writeFile('results.csv', PANDAS_CSV.replace('120.5', 'fast'));
    await expect(importCsv(words, { ...parseColumnMap(MAP) })).rejects.toThrow(
      `${words}:2: "latency_ms" must be a non-negative number, got "fast" (column "latency_ms")`,
    );
    const duplicate = writeFile('results.csv', PANDAS_CSV.replace('3,q4,refunds', '3,q3,refunds'));
    await expect(importCsv(duplicate, { ...parseColumnMap(MAP) })).rejects.toThrow(
      `${duplicate}:7: refunds/q3 appears twice (first on line 5)`,
    );
    const unclosed = writeFile('results.csv', PANDAS_CSV.replace('"line one', 'line one"'));
    await expect(importCsv(unclosed, { ...parseColumnMap(MAP) })).rejects.toThrow(`${unclosed}:5: not valid CSV:`);
  });

  it('names a mapped column the table does not have, and a field nothing fills', async () => {
    const file = writeFile('results.csv', PANDAS_CSV);
    await expect(importCsv(file, { ...parseColumnMap(['id=question_id,correct=scor']) })).rejects.toThrow(
      `${file}:1: --map correct=scor: no such column; the columns: , question_id, task, score, dialect, answer, latency_ms, tokens, error`,
    );
    await expect(importCsv(file, { ...parseColumnMap(['correct=score']), scenario: 'support' })).rejects.toThrow(
      `${file}:2: "id" is required and must be a non-empty string, got undefined (no column gives it: --map id=COLUMN)`,
    );
    await expect(importCsv(file, { ...parseColumnMap(['id=question_id,correct=score']) })).rejects.toThrow(
      '(no column gives it: --map scenario=COLUMN, or --scenario NAME)',
    );
    const named = await importCsv(file, { ...parseColumnMap(['id=question_id,correct=score']), scenario: 'support' });
    expect(new Set(named.map((record) => record.scenario))).toEqual(new Set(['support']));
  });

  it('reads True/False as 1/0 for correct, and column names with commas', async () => {
    const file = writeFile('r.csv', 'id,"passed, strict",scenario\r\na,True,s\r\nb,false,s\r\n');
    const records = await importCsv(file, { ...parseColumnMap(['correct=passed, strict']) });
    expect(records.map((record) => record.correct)).toEqual([1, 0]);
  });

  it('gates like any records: evalgate import --from csv, then evalgate metrics', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'results.csv'), PANDAS_CSV);
    const imported = await evalgate([
      'import',
      '--from',
      'csv',
      join(dir, 'results.csv'),
      '--out',
      join(dir, 'r.jsonl'),
      ...MAP.flatMap((map) => ['--map', map]),
    ]);
    expect(imported.stderr).toBe(`evalgate: 4 records from ${join(dir, 'results.csv')} to ${join(dir, 'r.jsonl')}\n`);
    expect(readJsonLines(join(dir, 'r.jsonl'))).toHaveLength(4);
    const measured = await evalgate(['metrics', join(dir, 'r.jsonl'), '--json', '--resamples', '0', '--min-group-size', '1']);
    const metrics = JSON.parse(measured.stdout) as { overall: Record<string, { value: number }> };
    expect(metrics.overall.accuracy.value).toBe(0.5); // (1 + 0 + 0.5) / 3 answered
    expect(metrics.overall.error_rate.value).toBe(0.25);
    expect(metrics.overall['group_accuracy:dialect=aae'].value).toBe(0.75);
    const badMap = await evalgate([
      'import',
      '--from',
      'csv',
      join(dir, 'results.csv'),
      '--out',
      join(dir, 'x.jsonl'),
      '--map',
      'score=correct',
    ]);
    expect(badMap.code).toBe(2);
    expect(badMap.stderr).toContain('--map score=correct: expected FIELD=COLUMN with FIELD one of scenario, id, sample, correct');
  });
});

describe('unit conversion in a map: --map FIELD=COLUMN*FACTOR', () => {
  it('stores a column in seconds as milliseconds through the CLI (77 for 0.077), CSV and JSON Lines alike', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 't.csv'), 'id,score,latency_s,cost_cents\nq1,1,0.077,1.5\nq2,0,1.2,\n');
    writeFileSync(join(dir, 't.jsonl'), '{"id": "q1", "score": 1, "latency_s": 0.077}\n{"id": "q2", "score": 0, "latency_s": 1.2}\n');
    for (const [from, file] of [
      ['csv', 't.csv'],
      ['jsonl', 't.jsonl'],
    ]) {
      const out = join(dir, `${from}.jsonl`);
      const map =
        from === 'csv'
          ? 'id=id,correct=score,latency_ms=latency_s*1000,cost_usd=cost_cents*0.01'
          : 'correct=score,latency_ms=latency_s * 1000';
      const result = await evalgate(['import', '--from', from, join(dir, file), '--out', out, '--scenario', 's', '--map', map]);
      expect(result.code).toBe(0);
      const records = readJsonLines(out);
      expect(records.map((record) => record.latency_ms)).toEqual([77, 1200]);
      if (from === 'csv') expect(records.map((record) => record.cost_usd)).toEqual([0.015, undefined]);
    }
  });

  it('refuses a factor on a field that is not a number, or a factor that is not positive, naming the pair', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 't.csv'), 'id,score\nq1,1\n');
    for (const map of ['correct=score*2', 'latency_ms=latency_s*0']) {
      const result = await evalgate([
        'import',
        '--from',
        'csv',
        join(dir, 't.csv'),
        '--out',
        join(dir, 'x.jsonl'),
        '--scenario',
        's',
        '--map',
        map,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--map ${map}: a *FACTOR multiplies a number field's cells by a positive number`);
    }
    // Without a factor, a column whose name holds "*" elsewhere is read as it is.
    expect(parseColumnMap(['latency_ms=a*b']).map).toEqual({ latency_ms: 'a*b' });
    expect(parseColumnMap(['latency_ms=a*b']).factors).toEqual({});
  });
});

describe('importing per-example JSON Lines', () => {
  it('maps fields, nested ones by a dotted path; NaN is absent; numbers as ids', async () => {
    const file = writeFile(
      'results.jsonl',
      [
        '{"qid": 17, "scores": {"exact": true}, "meta": {"lang": "sw"}, "confidence": 0.9}',
        '',
        '{"qid": 18, "scores": {"exact": 0.0}, "meta": {"lang": "en"}, "confidence": NaN}',
      ].join('\r\n'),
    );
    const { map } = parseColumnMap(['id=qid,correct=scores.exact,groups.lang=meta.lang']);
    expect(await importJsonl(file, { map, scenario: 'qa' })).toEqual([
      { scenario: 'qa', id: '17', correct: 1, groups: { lang: 'sw' }, confidence: 0.9 },
      { scenario: 'qa', id: '18', correct: 0, groups: { lang: 'en' } },
    ]);
  });

  it('names the file, line and field of a problem', async () => {
    const file = writeFile('results.jsonl', '{"qid": 1, "ok": 1}\n{"qid": 2, "ok": "yes"}\n');
    await expect(importJsonl(file, { ...parseColumnMap(['id=qid,correct=ok']), scenario: 'qa' })).rejects.toThrow(
      `${file}:2: "correct" must be a number in [0, 1], got "yes" (field "ok")`,
    );
    const good = writeFile('results.jsonl', '{"qid": 1, "ok": 1}\n');
    await expect(importJsonl(good, { ...parseColumnMap(['id=qid,correct=ok,confidence=conf']), scenario: 'qa' })).rejects.toThrow(
      `${good}: --map confidence=conf: no line has this field`,
    );
    const broken = writeFile('results.jsonl', '{"qid": 1, "ok": 1}\n{"qid": 2,\n');
    await expect(importJsonl(broken, { ...parseColumnMap(['id=qid,correct=ok']), scenario: 'qa' })).rejects.toThrow(
      `${broken}:2: not valid JSON`,
    );
  });
});
