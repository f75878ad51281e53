// Issue 21's tables, from the simulations' JSON (bench/out/simulation21.json: bench/simulate21.ts and
// bench/simulate21-cli.ts merged): prints {"section name": "markdown"} for bench/run.mjs to write
// between the <!-- name:start --> ... <!-- name:end --> markers of docs/statistics-design-21.md and
// docs/statistics.md.
import { readFileSync } from 'node:fs';
import type { MetricResult } from './estimators21.js';
import type { PopulationValues } from './population21.js';
import { formatRate, type Rate } from './sim21-common.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the JSON of two scripts, read back as it was written */
type Json = any;

const f = (x: number, digits = 4) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const r = (x: Rate | undefined) => (x ? formatRate(x) : '-');
const table = (header: string[], rows: string[][], align?: string[]) =>
  [
    `| ${header.join(' | ')} |`,
    `|${(align ?? header.map((_, k) => (k === 0 ? '---' : '---:'))).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

function population(result: Json): string {
  const { equal, unequal, groups } = result as { equal: PopulationValues; unequal: PopulationValues; groups: Json };
  const metrics: Array<[keyof PopulationValues, number]> = [
    ['accuracy', 4],
    ['ece', 5],
    ['ece_10_bin', 5],
    ['accuracy_robust', 4],
    ['accuracy_fair', 4],
    ['worst_group_accuracy', 4],
    ['group_accuracy_gap', 4],
    ['latency_p95_ms', 1],
  ];
  const groupText = (population: Json) => population.groups.map((g: Json) => `${g.name} ${100 * g.share}% at ${g.accuracy}`).join(', ');
  return [
    table(
      ['population value', 'equal groups (the default)', 'unequal groups'],
      metrics.map(([metric, digits]) => [`\`${metric}\``, f(equal[metric] as number, digits), f(unequal[metric] as number, digits)]),
    ),
    '',
    `Groups (region): equal: ${groupText(groups.equal)}; unequal: ${groupText(groups.unequal)}. The confidence's population deciles (the boundaries ece_10_bin's bins tend to): ${equal.confidenceDeciles.map((x) => f(x, 4)).join(', ')}.`,
  ].join('\n');
}

function today(cli: Json): string {
  const rows: string[][] = [];
  if (cli.small)
    rows.push(['1', '40 instances, a true 15-point drop, `max_regression: 0.02`, no `detect`: clean `pass`', r(cli.small.pass)]);
  for (const run of cli.lenient?.runs ?? []) {
    if (run.instances !== 300) continue;
    for (const check of run.checks)
      rows.push([
        '4',
        `one run of 300, \`lenient\` ${check.metric} bound at its population value ${f(check.truth, 4)}: blocked`,
        r(check.blocks),
      ]);
  }
  if (cli.realistic) {
    rows.push([
      '4',
      'A/A 300, realistic policy (ece_10_bin max 0.04, gap max 0.08, worst group min 0.70, five regression checks), `point`: blocked',
      r(cli.realistic.point),
    ]);
    rows.push(['4', 'the same, `lenient`: blocked', r(cli.realistic.lenient)]);
  }
  for (const run of cli.lenient?.runs ?? []) {
    if (run.instances === 300) continue;
    for (const check of run.checks)
      rows.push(['4', `${run.instances} instances: the 95% interval of ${check.metric} covers its population value`, r(check.cover95)]);
  }
  for (const row of cli.resamples?.rows ?? [])
    rows.push([
      '5',
      `A/A 600 (little bootstrap), accuracy budget 0, ${row.resamples} resamples: paired sd ${f(row.sd.mean, 4)}; blocked`,
      r(row.blocks),
    ]);
  if (cli.reruns) {
    rows.push([
      '6',
      `${cli.reruns.instances} instances (\`plan\` for detect ${cli.reruns.detect}), a true drop of ${cli.reruns.detect}: the first run blocks`,
      r(cli.reruns.firstBlocks),
    ]);
    for (const escape of cli.reruns.escapes)
      rows.push([
        '6',
        `... a failed first run, then up to ${escape.within} re-run(s) until green: escapes (each run alone / runs pooled)`,
        `${r(escape.independent)} / ${r(escape.pooled)}`,
      ]);
  }
  return [
    table(['issue point', 'scenario, through `node dist/cli.js gate`', 'measured [95% interval]'], rows, ['---:', '---', '---:']),
    '',
    `${cli.trials} trials a scenario (${cli.slowTrials} at 2,000 instances and for the re-runs), measured ${cli.date}.`,
  ].join('\n');
}

const METHOD_NAMES: Record<string, string> = {
  P: 'percentile (today)',
  'P-today': "percentile, today's little bootstrap",
  BC: 'bias-corrected percentile',
  BASIC: 'basic',
  BCa: 'BCa',
  KLM: 'Kumar et al., basic interval',
  DEV: '**proposed** (src/stats/bound-estimators.ts)',
  'DEV-raw': 'proposed, without the spread floor',
};

/** Which side a lenient bound at the population value is judged on. */
const lenientSide = (metric: string) => (metric === 'worst_group_accuracy' ? 'upperBelow' : 'lowerAbove');

function estimators(result: Json): string {
  const configs = result as Array<{ name: string; n: number; trials: number; resamples: number; metrics: MetricResult[] }>;
  const calibrated = configs.filter((c) => c.name.startsWith('equal groups'));
  const sections: string[] = [];
  for (const metric of ['ece', 'ece_10_bin', 'worst_group_accuracy', 'group_accuracy_gap']) {
    const methods = [...new Set(calibrated.flatMap((c) => c.metrics.find((m) => m.metric === metric)!.methods.map((x) => x.method)))];
    const header = [
      'method',
      ...calibrated.map((c) => `covers (95%), ${c.name.replace('equal groups, calibrated, ', '')}`),
      ...calibrated.map((c) => `lenient at the truth blocks, ${c.name.replace('equal groups, calibrated, ', '')}`),
    ];
    const rows = methods.map((method) => [
      METHOD_NAMES[method] ?? method,
      ...calibrated.map((c) => r(c.metrics.find((m) => m.metric === metric)!.methods.find((x) => x.method === method)?.cover95)),
      ...calibrated.map((c) => {
        const found = c.metrics.find((m) => m.metric === metric)!.methods.find((x) => x.method === method);
        return r(method === 'DEV' ? found?.pBlocksAtTruth : (found as Json)?.[lenientSide(metric)]);
      }),
    ]);
    const truth = calibrated[0].metrics.find((m) => m.metric === metric)!.truth;
    sections.push(`**\`${metric}\`** (population value ${f(truth, 4)}; equal groups, calibrated model)\n\n${table(header, rows)}`);
  }
  // Elsewhere: unequal groups and over-confident models, for the proposed tests beside the best of the others.
  const others = configs.filter((c) => !c.name.startsWith('equal groups'));
  const rows: string[][] = [];
  for (const c of others) {
    for (const m of c.metrics) {
      for (const method of m.methods.filter((x) => ['DEV', 'BASIC', 'KLM'].includes(x.method))) {
        const lenient = method.lenient.map((l) => `max/min ${l.bound}: ${r(method.method === 'DEV' ? l.pBlocks : l.blocks)}`).join('; ');
        rows.push([
          c.name,
          `\`${m.metric}\` (${f(m.truth, 4)})`,
          METHOD_NAMES[method.method],
          r(method.cover95),
          r(method.method === 'DEV' ? method.pBlocksAtTruth : (method as Json)[lenientSide(m.metric)]),
          lenient || '-',
        ]);
      }
    }
  }
  sections.push(
    `**Other populations** (the proposed tests beside the basic interval and Kumar et al.'s)\n\n${table(
      [
        'population, instances',
        'metric (population value)',
        'method',
        'covers (95%)',
        'lenient at the truth blocks',
        'lenient at another bound blocks',
      ],
      rows,
      ['---', '---', '---', '---:', '---:', '---'],
    )}`,
  );
  const points = configs.flatMap((c) =>
    c.metrics.map((m) => [
      c.name,
      `\`${m.metric}\` (${f(m.truth, 4)})`,
      ...['plugin', 'bc', 'klm', 'klmbc'].map((name) =>
        m.points[name] ? `${m.points[name].bias >= 0 ? '+' : ''}${f(m.points[name].bias)} (${f(m.points[name].rmse)})` : '-',
      ),
    ]),
  );
  sections.push(
    `**Point estimates**: bias (root mean square error)\n\n${table(
      [
        'population, instances',
        'metric (population value)',
        'plug-in (today)',
        'bootstrap bias-corrected',
        'Kumar et al.',
        'Kumar et al., then bias-corrected',
      ],
      points,
      ['---', '---', '---:', '---:', '---:', '---:'],
    )}`,
  );
  const counts = [...new Set(configs.map((c) => `${c.trials} trials at ${c.n} instances`))].join(', ');
  sections.push(`${counts}; ${configs[0].resamples} resamples per trial (plain bootstrap, but where the row says little bootstrap).`);
  return sections.join('\n\n');
}

function gate(result: Json): string {
  const { smallSuite, atBudget, doneWhenAA, defaultDetect } = result;
  const parts: string[] = [];
  parts.push(
    table(
      ["scenario (in-process, the engine's paired bootstrap)", "today's rule", 'proposed rules', 'target'],
      [
        [
          '40 instances, a true 15-point drop, budget 0.02, no detect: clean pass',
          r(smallSuite.todayCleanPass),
          `${r(smallSuite.proposed.pass)} (fail ${r(smallSuite.proposed.fail)}, inconclusive ${r(smallSuite.proposed.inconclusive)})`,
          '0',
        ],
        ...atBudget.rows.map((row: Json) => [
          `${atBudget.instances} instances, ${row.label}: blocked`,
          r(row.blockedToday),
          r(row.blockedProposed) + (row.expectedProposed !== undefined ? ` (expected ${(100 * row.expectedProposed).toFixed(0)}%)` : ''),
          row.label.includes('MDE80') ? 'about 80%' : 'at most 5%',
        ]),
        ...doneWhenAA.rows.flatMap((row: Json) => [
          [`A/A 600, five checks, detect ${row.margin} x plan's MDE80: blocked`, r(row.blockedToday), r(row.blocked), 'at most 5%'],
          [`... inconclusive`, '-', r(row.inconclusive), 'at most 10%'],
        ]),
      ],
      ['---', '---:', '---:', '---'],
    ),
  );
  parts.push(
    `Paired spread of accuracy at ${atBudget.instances} instances: ${f(atBudget.sigma, 4)}. Plan's MDE80 at 600 instances (the median of 20 pilot pairs): ${Object.entries(
      doneWhenAA.planned,
    )
      .map(([metric, mde]) => `${metric} ${f(mde as number, metric.startsWith('latency') ? 1 : 4)}`)
      .join(', ')}.`,
  );
  const metrics = defaultDetect[0].checks.map((c: Json) => c.metric);
  parts.push(
    `**The default detect against suite size** (A/A, five checks, budgets 0.01 and 5%: detect 0.05 and 15%): share of comparisons inconclusive (MDE80, mean), and for a deterministic model (both runs identical)\n\n${table(
      ['instances', ...metrics.map((m: string) => `\`${m}\``), 'any check', 'deterministic: any check'],
      defaultDetect.map((row: Json) => [
        String(row.instances),
        ...row.checks.map((c: Json) => `${(100 * c.inconclusive.rate).toFixed(0)}% (${f(c.mde, c.metric.startsWith('latency') ? 1 : 3)})`),
        r(row.anyInconclusive),
        `${Math.max(...row.checks.map((c: Json) => c.deterministicInconclusive.rate)) * 100}%`,
      ]),
    )}\n\n${defaultDetect[0].anyInconclusive.trials} trials a size (${defaultDetect[0].checks[0].deterministicInconclusive.trials} deterministic).`,
  );
  return parts.join('\n\n');
}

function resamples(result: Json): string {
  const centrings = ['engine', 'today', 'corrected', 'subset', 'raised'];
  const names: Record<string, string> = {
    engine: 'the engine today',
    today: "today's centring (replica)",
    corrected: 'today x sqrt(r / (r - 1))',
    subset: '**each subset on its own value**',
    raised: 'today, at least 50 a subset',
  };
  return [
    table(
      ['resamples (a subset)', ...centrings.map((c) => `${names[c]}: sd / plain sd; A/A blocked`)],
      result.rows.map((row: Json) => [
        `${row.resamples} (${row.perSubset})`,
        ...centrings.map((c) => `${f(row[c].sdRatio, 3)}; ${r(row[c].blocks)}`),
      ]),
    ),
    '',
    `A/A pairs of ${result.instances} instances (subsets of ${result.subsetSize}), one accuracy check with budget 0 (target: blocked at most 5%); plain sd ${f(result.plainSd, 4)} (the spread of the mean difference, s / sqrt(n)). ${result.rows[0].engine.blocks.trials} trials.`,
  ].join('\n');
}

function reruns(result: Json): string {
  const rules = ['independent', 'pooled', 'msprt'];
  const names: Record<string, string> = {
    independent: 'each run alone (today)',
    pooled: '**runs pooled as samples**',
    msprt: 'mSPRT over the pooled runs',
  };
  const at = result.atDetect;
  const same = result.unchanged;
  return [
    table(
      [
        'rule',
        'true drop = detect: first run blocks',
        'then a re-run passes: within 1',
        'within 2',
        'within 3',
        'within 5',
        'of all pull requests',
        'unchanged model: first run blocks',
        'blocked on all 6 runs',
        'blocked on some run of 6',
      ],
      rules.map((rule) => [
        names[rule],
        r(at[rule].firstBlocks),
        ...at[rule].escapeWithin.map((e: Json) => r(e.escaped)),
        r(at[rule].escapedOfAll),
        r(same[rule].firstBlocks),
        r(same[rule].blockedThroughout),
        r(same[rule].blockedAtSomeLook),
      ]),
    ),
    '',
    `${at.independent.firstBlocks.trials} pull requests of each kind; ${result.instances} instances (what \`evalgate plan\` asks for an accuracy check with budget 0 and detect ${result.detect}); the baseline fixed, every run of the candidate drawn anew.`,
  ].join('\n');
}

function realistic(result: Json, cli: Json): string {
  return [
    table(
      ['A/A, 300 instances: the realistic policy blocks', 'today (through the CLI)', 'proposed (in-process)', 'target'],
      [
        ['`bounds: lenient`', r(cli?.realistic?.lenient), r(result.lenient), 'at most 5%'],
        ['`bounds: point` (the corrected estimates; no error control)', r(cli?.realistic?.point), r(result.point), '-'],
      ],
      ['---', '---:', '---:', '---'],
    ),
    '',
    'ece_10_bin max 0.04 (population value 0.0116), gap max 0.08 (0), worst group min 0.70 (0.75), and the five regression checks of section 2 (budgets 0.01, latency 5%), one Holm family.',
  ].join('\n');
}

/** Issue 21's Done-when, measured through the CLI on the gate as built (the `done` part). */
function done(cli: Json): string {
  const rows: string[][] = [];
  if (cli.small) {
    const o = cli.small.outcomes;
    rows.push([
      '40 instances, a true 15-point drop, `max_regression: 0.02`, no `detect`: outcome pass / inconclusive / fail',
      `${r(o.pass)} / ${r(o.inconclusive)} / ${r(o.fail)}`,
      'never a clean pass',
    ]);
  }
  if (cli.aa600) {
    const detects = cli.aa600.checks.map((c: Json) => `${c.metric} ${c.detect}`).join(', ');
    rows.push([
      `A/A ${cli.aa600.instances} instances and their two variants, five regression checks (detect: ${detects}): blocked`,
      r(cli.aa600.blocks),
      'at most 5%',
    ]);
    rows.push(['... the same pairs: some check inconclusive', r(cli.aa600.inconclusive), 'at most 10%']);
  }
  if (cli.realistic) {
    rows.push(['A/A 300, the realistic policy, `bounds: lenient`: blocked', r(cli.realistic.lenient), 'at most 5%']);
    rows.push(['... `bounds: point` (corrected estimates, no error control): blocked', r(cli.realistic.point), '-']);
  }
  for (const row of cli.resamples?.rows ?? [])
    rows.push([`A/A 600 (little bootstrap), accuracy budget 0, ${row.resamples} resamples: blocked`, r(row.blocks), 'about 5%']);
  if (cli.reruns) {
    rows.push([
      `${cli.reruns.instances} instances (\`plan\` for detect ${cli.reruns.detect}), a true drop of ${cli.reruns.detect}: the first run blocks`,
      r(cli.reruns.firstBlocks),
      '-',
    ]);
    for (const escape of cli.reruns.escapes)
      rows.push([
        `... then up to ${escape.within} re-run(s) until green: escapes, each run alone / runs pooled (\`--prior-run\`)`,
        `${r(escape.independent)} / ${r(escape.pooled)}`,
        escape.within === 5 ? 'pooled: at most 10%' : '-',
      ]);
  }
  return [
    table(['scenario, through `node dist/cli.js gate` (the gate as built)', 'measured [95% interval]', 'target'], rows, [
      '---',
      '---:',
      '---',
    ]),
    '',
    `${cli.trials} trials a scenario (${cli.slowTrials} for the re-runs), measured ${cli.date}.`,
  ].join('\n');
}

export function sections(results: Json): Record<string, string> {
  const out: Record<string, string> = {};
  if (results.population) out['sim21-population'] = population(results.population.result);
  if (results.cli) out['sim21-today'] = today(results.cli);
  if (results.done) out['sim21-done'] = done(results.done);
  if (results.estimators) out['sim21-estimators'] = estimators(results.estimators.result);
  if (results.gate) out['sim21-gate'] = gate(results.gate.result);
  if (results.realistic) out['sim21-realistic'] = realistic(results.realistic.result, results.cli);
  if (results.resamples) out['sim21-resamples'] = resamples(results.resamples.result);
  if (results.reruns) out['sim21-reruns'] = reruns(results.reruns.result);
  return out;
}

if (process.argv[2]) console.log(JSON.stringify(sections(JSON.parse(readFileSync(process.argv[2], 'utf8')))));
