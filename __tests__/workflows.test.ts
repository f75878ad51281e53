import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/*
 * The repository's own workflows, read as GitHub reads them: they parse, the action's steps (`uses: ./`)
 * give only inputs action.yml declares (and every required one), they grant what the README says the
 * action needs, and CI runs the README's test command on the Node versions the action supports.
 */

type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
type Workflow = {
  on: unknown;
  permissions?: Record<string, string>;
  jobs: Record<string, { steps: Step[]; strategy?: { matrix?: Record<string, unknown> } }>;
};

const folder = '.github/workflows';
const workflows = Object.fromEntries(
  readdirSync(folder).map((file) => [file, parse(readFileSync(join(folder, file), 'utf8')) as Workflow] as const),
);
const steps = (workflow: Workflow) => Object.values(workflow.jobs).flatMap((job) => job.steps);
const action = parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, { required?: boolean }>; runs: { using: string } };

/** The permissions of the README's workflow (its yaml block with jobs). */
function readmePermissions(): Record<string, string> {
  const blocks = [...readFileSync('README.md', 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => parse(match[1]) as Workflow);
  return blocks.find((block) => block.jobs !== undefined)!.permissions!;
}

describe('the repository workflows', () => {
  it('exist for CI, the self-test, the release, CodeQL and mutation testing, each with permissions of its own', () => {
    expect(Object.keys(workflows).sort()).toEqual(['ci.yml', 'codeql.yml', 'mutation.yml', 'release.yml', 'self-test.yml']);
    for (const [file, workflow] of Object.entries(workflows)) expect([file, typeof workflow.permissions]).toEqual([file, 'object']);
  });

  it('give the action only inputs it declares, and all it requires', () => {
    const uses = Object.values(workflows)
      .flatMap(steps)
      .filter((step) => step.uses === './');
    expect(uses.length).toBeGreaterThan(0);
    const required = Object.entries(action.inputs)
      .filter(([, input]) => input.required)
      .map(([name]) => name);
    for (const step of uses) {
      expect(Object.keys(step.with ?? {}).filter((input) => !(input in action.inputs))).toEqual([]);
      expect(required.filter((input) => !(input in (step.with ?? {})))).toEqual([]);
    }
  });

  it("run the action with the permissions the README's workflow grants", () => {
    expect(workflows['self-test.yml'].permissions).toEqual(readmePermissions());
  });

  it("run the README's test command on Node 20 and on the action's runtime, and check dist/", () => {
    const ci = workflows['ci.yml'];
    expect(ci.jobs.test.strategy?.matrix?.node).toEqual([20, Number(action.runs.using.replace('node', ''))]);
    expect(ci.jobs.test.steps.map((step) => step.run).filter(Boolean)).toEqual(['npm ci', 'npm test']);
    expect(steps(ci).some((step) => step.run?.includes('npm run bundle'))).toBe(true);
  });

  it('move the major tag on a release, and let Dependabot update npm and the actions', () => {
    expect(workflows['release.yml'].on).toEqual({ release: { types: ['published'] } });
    expect(steps(workflows['release.yml']).some((step) => step.run?.includes('git tag -f "$major"'))).toBe(true);
    const dependabot = parse(readFileSync('.github/dependabot.yml', 'utf8')) as { updates: Array<{ 'package-ecosystem': string }> };
    expect(dependabot.updates.map((update) => update['package-ecosystem'])).toEqual(['npm', 'github-actions']);
  });

  it('run mutation testing on pull requests that touch a mutated file, and keep its report', async () => {
    // A path in a variable: tsc types no .mjs file.
    const config = '../stryker.config.mjs';
    const { default: stryker } = (await import(config)) as { default: { mutate: string[]; jsonReporter: { fileName: string } } };
    const mutation = workflows['mutation.yml'] as Workflow & { on: { pull_request: { paths: string[] }; push: { paths: string[] } } };
    const { paths } = mutation.on.pull_request;
    expect(mutation.on.push.paths).toEqual(paths);
    // Every file pattern Stryker mutates (the exclusions aside) is one the workflow watches.
    expect(stryker.mutate.filter((pattern) => !pattern.startsWith('!')).map((pattern) => pattern.replace('/**/*.ts', '/**'))).toEqual(
      paths.filter((path) => path.startsWith('src/')),
    );
    const { steps: jobSteps } = mutation.jobs.mutation;
    expect(jobSteps.map((step) => step.run).filter(Boolean)).toEqual([
      'npm ci',
      'npm run mutation',
      'node scripts/mutation-score.mjs --min 85',
    ]);
    const upload = jobSteps.find((step) => step.uses?.startsWith('actions/upload-artifact'));
    expect(String(upload?.with?.path)).toContain(stryker.jsonReporter.fileName);
  });
});

describe("docs/action.md's inputs table", () => {
  it("gives as an input's default only the default action.yml declares (samples has none: empty is one call per example)", () => {
    const declared = parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, { default?: string }> };
    const rows = [...readFileSync('docs/action.md', 'utf8').matchAll(/^\| `([a-z-]+)` \|([^|]*)\|/gm)];
    expect(rows.map(([, input]) => input)).toContain('samples');
    for (const [, input, cell] of rows) {
      // A cell that is one plain value is a default; a sentence (`base` on pull requests ...) is computed by the action.
      const value = /^`([^`]*)`$/.exec(cell.trim())?.[1];
      if (value !== undefined) expect([input, value]).toEqual([input, declared.inputs[input].default]);
    }
  });
});
