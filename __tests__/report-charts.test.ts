import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeMetrics } from '../src/metrics/compute.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';
import { calibrationBins } from '../src/report/chart-data.js';
import { formatMetricName } from '../src/metrics/names.js';
import { FEW_EXAMPLES, groupBars, latencyOutline, latencyQuantiles, reliabilityPoints } from '../src/report/vega-charts.js';
import { parseGateReport, type GateReport } from '../src/report/json.js';
import { Random } from '../src/stats/random.js';
import { gateMarkdown, MAX_COMMENT_CHARACTERS } from '../src/report/markdown.js';
import { gateReports } from './helpers/evalgate.js';
import { tempDir } from './helpers/records.js';

/*
 * The data the charts draw, in the JSON report (read back as the action reads a posted one), and the
 * charts in the comment: what they show, and that they are the first thing the size limit cuts.
 */

/** The gate's JSON report (as text) and comment. */
async function gateJson(policy: string, candidate: string, baseline: string): Promise<{ text: string; markdown: string }> {
  const { json, markdown } = await gateReports(policy, candidate, baseline);
  return { text: json, markdown };
}

const demo = () => gateJson('policies/customer-support.yml', 'examples/billing/candidate-a.jsonl', 'examples/billing/baseline.jsonl');

describe("the charts' data in the JSON report", () => {
  it('holds the confidence bins, the baseline metrics, the pooled metrics and the latencies, and reads back whole', async () => {
    const { text } = await demo();
    const written = JSON.parse(text) as GateReport;
    // The gated calibration scopes: ece overall and in billing-exceptions; bins of a tenth, counts adding up.
    expect(written.calibration!.map((scope) => scope.scope)).toEqual(['overall', 'billing-exceptions']);
    const overall = written.calibration![0];
    expect(
      overall.candidate.every(
        (bin) => bin.low * 10 === Math.round(bin.low * 10) && bin.confidence >= bin.low && bin.confidence <= bin.low + 0.1,
      ),
    ).toBe(true);
    const answered = written.checks.find((check) => check.metric === 'ece' && check.scope === 'overall')!.candidate!.n;
    expect(overall.candidate.reduce((sum, bin) => sum + bin.count, 0)).toBe(answered);
    // The baseline's metrics agree with the comparison's baseline value (all instances shared here).
    const accuracy = written.checks.find((check) => check.metric === 'accuracy' && check.scope === 'overall')!;
    expect(written.baselineMetrics!.overall.accuracy.value).toBeCloseTo(accuracy.comparison!.baseline, 10);
    expect(written.overall!.accuracy.value).toBe(accuracy.candidate!.value);
    // Every answered record's latency, counted once.
    const timed = readFileSync('examples/billing/candidate-a.jsonl', 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { latency_ms?: number; error?: string })
      .filter((record) => record.latency_ms !== undefined && record.error === undefined).length;
    expect(written.latency!.candidate.reduce((a, b) => a + b, 0)).toBe(timed);
    expect(written.latency!.edges).toHaveLength(written.latency!.candidate.length + 1);
    // Read back (the action's `report` input) with every chart field kept.
    expect(JSON.parse(JSON.stringify(parseGateReport(text, 'report.json')))).toEqual(written);
  });

  it('is optional: a report without it (an older evalgate) reads back and makes a comment without those charts', async () => {
    const { text } = await demo();
    const older = JSON.parse(text) as Record<string, unknown>;
    for (const field of ['overall', 'baselineMetrics', 'calibration', 'latency']) delete older[field];
    const report = parseGateReport(JSON.stringify(older), 'old.json');
    const markdown = gateMarkdown(report);
    expect(markdown).toContain('| ❌ fail         | ece (overall)  ');
    expect(markdown).not.toContain('```mermaid');
    expect(markdown).not.toContain('Reliability');
    expect(markdown).not.toContain('Accuracy per dialect');
  });

  it('refuses chart data that is not what evalgate writes, naming the field', async () => {
    const { text } = await demo();
    const report = JSON.parse(text) as GateReport;
    report.calibration![0].candidate[0].accuracy = 7;
    expect(() => parseGateReport(JSON.stringify(report), 'forged.json')).toThrow(/forged\.json.*calibration\.0\.candidate\.0\.accuracy/);
  });
});

describe('the reliability diagram', () => {
  it('weighs examples as ece does: with repeated samples its bins give ece and count the examples', () => {
    const random = new Random(8);
    const records: EvalRecord[] = [];
    for (let i = 0; i < 200; i++) {
      // Some examples asked once, others three times; some samples without a confidence.
      const samples = i % 3 === 0 ? 3 : 1;
      for (let sample = 0; sample < samples; sample++) {
        const confidence = random.nextFloat() < 0.85 ? { confidence: random.nextBelow(101) / 100 } : {};
        records.push({ scenario: 's', id: `q${i}`, correct: random.nextBelow(2), ...confidence, ...(samples > 1 ? { sample } : {}) });
      }
    }
    const table = buildTable(records);
    const { ece } = computeMetrics(table, { resamples: 0, seed: 1, minGroupSize: 10 }).overall;
    const bins = calibrationBins(table, { kind: 'pooled' });
    const examples = bins.reduce((sum, bin) => sum + bin.count, 0);
    const fromBins = bins.reduce((sum, bin) => sum + (bin.count / examples) * Math.abs(bin.accuracy - bin.confidence), 0);
    expect(examples).toBeCloseTo(ece.n, 9);
    expect(fromBins).toBeCloseTo(ece.value, 12);
  });
});

describe('the charts in the comment', () => {
  it('draw a reliability diagram per gated calibration scope and the gated groups, each with a caption, and nothing else', async () => {
    const { markdown, text } = await demo();
    const report = JSON.parse(text) as GateReport;
    const blocks = [...markdown.matchAll(/```mermaid\n([\s\S]*?)\n```\n\n(_[^\n]+_)\n/g)].map((match) => ({
      chart: match[1],
      caption: match[2],
    }));
    expect(blocks.map(({ chart }) => /title "([^"]*)"/.exec(chart)![1])).toEqual([
      'Reliability',
      'Reliability (billing-exceptions)',
      'Accuracy per dialect',
    ]);
    expect(markdown.split('```mermaid').length - 1).toBe(blocks.length); // every chart has its caption
    // The overall reliability diagram: the candidate's accuracy per bin in percent, each bin's examples counted.
    const bins = report.calibration![0].candidate;
    const [reliability, , groups] = blocks.map(({ chart }) => chart);
    expect(reliability).toContain(`bar [${bins.map((bin) => Math.round(bin.accuracy * 1e6) / 1e4).join(', ')}]`);
    expect(reliability).toContain(`"90-100 (n ${bins.at(-1)!.count})"`);
    // Groups are unrelated categories: bars only, the baseline's beside the candidate's, no line across them.
    const values = ['sae', 'aae'].flatMap((group) =>
      [report.baselineMetrics!.overall, report.overall!].map(
        (metrics) => Math.round(metrics[`group_accuracy:dialect=${group}`].value * 1e6) / 1e4,
      ),
    );
    expect(groups).toContain('x-axis ["sae: baseline", "sae: candidate", "aae: baseline", "aae: candidate"]');
    expect(groups).toContain(`bar [${values.join(', ')}]`);
    expect(groups).not.toContain('line [');
    expect(blocks[2].caption).toBe("_Each group's accuracy: the baseline's bar, then the candidate's._");
  });

  it('draw every bar from zero: each value axis starts at 0 and holds every value', async () => {
    for (const candidate of ['candidate-a', 'candidate-b']) {
      const { markdown } = await gateJson(
        'policies/customer-support.yml',
        `examples/billing/${candidate}.jsonl`,
        'examples/billing/baseline.jsonl',
      );
      const charts = [...markdown.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((match) => match[1]);
      expect(charts.length).toBeGreaterThan(0);
      for (const chart of charts) {
        const [, low, high] = /y-axis "[^"]*" (-?[\d.]+) --> (-?[\d.]+)/.exec(chart)!;
        expect(Number(low)).toBe(0);
        const plotted = [...chart.matchAll(/(?:bar|line) \[([^\]]*)\]/g)].flatMap((match) => match[1].split(', ').map(Number));
        for (const value of plotted) expect(value >= 0 && value <= Number(high)).toBe(true);
      }
    }
  });

  it('are the first thing left out over the size limit; the verdict and what fails stay', async () => {
    const dir = tempDir();
    // 400 scenarios of long names: their details alone are over the limit.
    const scenario = (s: number) => `scenario ${s} ${'x'.repeat(150)}`;
    const lines = (shift: number) =>
      Array.from({ length: 400 * 5 }, (_, i) => {
        const confidence = ((i * 37) % 100) / 100;
        return JSON.stringify({
          scenario: scenario(i % 400),
          id: `${i}`,
          correct: (i + shift) % 3 ? 1 : 0,
          confidence,
          groups: { dialect: i % 2 ? 'a' : 'b' },
        });
      }).join('\n');
    writeFileSync(join(dir, 'c.jsonl'), lines(1));
    writeFileSync(join(dir, 'b.jsonl'), lines(0));
    const policy = {
      version: 1,
      name: 'big',
      settings: { resamples: 50 },
      checks: [
        { metric: 'accuracy', max_regression: 0.01 },
        { metric: 'ece', max: 0.01 },
        { metric: 'worst_group_accuracy:dialect', min: 0 },
      ],
    };
    writeFileSync(join(dir, 'policy.json'), JSON.stringify(policy));
    const { markdown } = await gateJson(join(dir, 'policy.json'), join(dir, 'c.jsonl'), join(dir, 'b.jsonl'));
    expect(markdown.length).toBeLessThanOrEqual(MAX_COMMENT_CHARACTERS);
    expect(markdown).not.toContain('```mermaid');
    const [, left, total] = /Left out to stay within GitHub's comment size limit: .*?(\d+) of the (\d+) charts, /.exec(markdown) ?? [];
    expect(left).toBe(total);
    expect(Number(total)).toBe(2); // reliability, groups
    expect(markdown).toMatch(/^## ❌ evalgate: fail/);
    expect(markdown).toContain('### What blocks, warns or is inconclusive');
    expect(markdown).toMatch(/\n- ❌ \*\*ece\*\* \(overall\) blocks: /);
    expect(markdown).toContain('\n> Comparability: ');
    expect(markdown).toContain('\n> Error-controlled at 5%');
  });
});

describe("the HTML report's charts, their data", () => {
  let gated: Promise<GateReport> | undefined;
  /** The demo's gate, run once for these tests. */
  const demoReport = async () => structuredClone(await (gated ??= demo().then(({ text }) => JSON.parse(text) as GateReport)));

  it('count the examples of each confidence bin as a hand count does, the bins of fewer than 10 marked faint', () => {
    const record = (id: string, confidence: number | undefined, correct: number | undefined, error?: string): EvalRecord => ({
      scenario: 's',
      id,
      ...(correct === undefined ? {} : { correct }),
      ...(confidence === undefined ? {} : { confidence }),
      ...(error ? { error } : {}),
    });
    const records = [
      // Bin 0-10%: three examples, two right.
      record('a', 0.02, 1),
      record('b', 0.05, 0),
      record('c', 0.09, 1),
      // Bin 50-60%: twelve examples, nine right.
      ...Array.from({ length: 12 }, (_, i) => record(`m${i}`, 0.5 + i / 200, i < 9 ? 1 : 0)),
      // Bin 90-100%: two, a confidence of 1 in the last bin.
      record('y', 0.95, 1),
      record('z', 1, 1),
      // Not counted: a failed call, and an answer without a confidence.
      record('failed', 0.55, undefined, 'timeout'),
      record('unsure', undefined, 1),
    ];
    const bins = calibrationBins(buildTable(records), { kind: 'pooled' });
    expect(bins.map(({ low, count }) => [low, count])).toEqual([
      [0, 3],
      [0.5, 12],
      [0.9, 2],
    ]);
    expect(bins.map((bin) => bin.accuracy)).toEqual([2 / 3, 9 / 12, 1]);
    const points = reliabilityPoints(bins, bins.slice(1));
    expect(FEW_EXAMPLES).toBe(10);
    expect(points.map(({ run, label, few }) => [run, label, few])).toEqual([
      ['candidate', '3', true],
      ['candidate', '12', false],
      ['candidate', '2', true],
      ['baseline', '12', false],
      ['baseline', '2', true],
    ]);
  });

  it("draw each group's interval with the ends of the metric's 95% interval, the group's name as a plain label", async () => {
    const report = await demoReport();
    const { bars, note } = groupBars(report, 'dialect', { kind: 'pooled' });
    expect(note).toBe('');
    expect(bars.map(({ group, run }) => `${group} ${run}`)).toEqual(['sae candidate', 'sae baseline', 'aae candidate', 'aae baseline']);
    for (const bar of bars) {
      const metrics = bar.run === 'candidate' ? report.overall! : report.baselineMetrics!.overall;
      const { value, ci } = metrics[`group_accuracy:dialect=${bar.group}`];
      expect(bar.accuracy).toBe(value);
      expect([bar.low, bar.high]).toEqual(ci ?? [null, null]);
    }
    // The candidate's metrics have intervals, the baseline's are point estimates.
    expect(bars.filter((bar) => bar.low !== null).map((bar) => bar.run)).toEqual(['candidate', 'candidate']);

    // A hostile group value: shown as a plain label (markup as text, for vega to escape; bidi controls as escapes).
    const hostile = '<img src=x onerror="alert(1)">\u202e:=%';
    const metric = formatMetricName({ family: 'group_accuracy', group: { attribute: 'dialect', value: hostile } });
    report.overall![metric] = { value: 0.5, ci: [0.25, 0.75], n: 12 };
    const [bar] = groupBars(report, 'dialect', { kind: 'pooled' }).bars.filter((entry) => entry.group.startsWith('<img'));
    expect(bar).toEqual({ group: '<img src=x onerror="alert(1)">\\u202e:=%', run: 'candidate', accuracy: 0.5, low: 0.25, high: 0.75 });
  });

  it('draw each latency histogram as the outline of its bars, and mark the p50 and p95 the metrics report', async () => {
    expect(latencyOutline({ edges: [0, 10, 20], candidate: [3, 5], baseline: [1, 0] })).toEqual([
      { run: 'candidate', step: 0, ms: 0, count: 0 },
      { run: 'candidate', step: 1, ms: 0, count: 3 },
      { run: 'candidate', step: 2, ms: 10, count: 5 },
      { run: 'candidate', step: 3, ms: 20, count: 5 },
      { run: 'candidate', step: 4, ms: 20, count: 0 },
      { run: 'baseline', step: 0, ms: 0, count: 0 },
      { run: 'baseline', step: 1, ms: 0, count: 1 },
      { run: 'baseline', step: 2, ms: 10, count: 0 },
      { run: 'baseline', step: 3, ms: 20, count: 0 },
      { run: 'baseline', step: 4, ms: 20, count: 0 },
    ]);
    const report = await demoReport();
    expect(latencyQuantiles(report)).toEqual([
      { run: 'candidate', quantile: 'p50', ms: report.overall!.latency_p50_ms.value },
      { run: 'candidate', quantile: 'p95', ms: report.overall!.latency_p95_ms.value },
      { run: 'baseline', quantile: 'p50', ms: report.baselineMetrics!.overall.latency_p50_ms.value },
      { run: 'baseline', quantile: 'p95', ms: report.baselineMetrics!.overall.latency_p95_ms.value },
    ]);
  });
});
