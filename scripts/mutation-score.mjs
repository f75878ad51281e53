// The mutation score of each file in Stryker's JSON report (mutation-testing-report-schema), and a
// failure when one is under the minimum: `node scripts/mutation-score.mjs [REPORT] [--min 85]`. Stryker's
// own threshold (`thresholds.break`) judges the total only; every decision file must hold on its own.
// Score = (killed + timed out) / (killed + timed out + survived + no coverage); ignored (static) and
// compile errors are outside it, as in Stryker's.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const minAt = args.indexOf('--min');
const minimum = minAt === -1 ? 85 : Number(args[minAt + 1]);
const file = args.find((arg, index) => !arg.startsWith('--') && (minAt === -1 || index !== minAt + 1)) ?? 'reports/mutation/mutation.json';

const report = JSON.parse(readFileSync(file, 'utf8'));
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
let below = 0;
for (const [path, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const detected = mutants.filter((mutant) => DETECTED.has(mutant.status)).length;
  const valid = detected + mutants.filter((mutant) => UNDETECTED.has(mutant.status)).length;
  const score = valid === 0 ? 100 : (100 * detected) / valid;
  const ok = score >= minimum;
  if (!ok) below++;
  console.log(
    `${ok ? 'ok  ' : 'LOW '} ${score.toFixed(1).padStart(5)}%  ${String(detected).padStart(4)}/${String(valid).padEnd(4)} ${path}`,
  );
}
if (below > 0) {
  console.error(`${below} file(s) under ${minimum}% of mutants killed`);
  process.exit(1);
}
