import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/records.js';
import { runProcess } from './helpers/run.js';

/*
 * The CLI as npm users get it: `npm pack` of this checkout, installed from the tarball alone into an
 * empty folder without the network (the bundle carries every dependency), then `npx evalgate`.
 */
describe('the npm package', () => {
  it('installs offline from its tarball and runs demo, validate and gate with npx', async () => {
    const packed = tempDir();
    const pack = await runProcess('npm', ['pack', '--json', '--pack-destination', packed]);
    expect(pack.code).toBe(0);
    const [{ filename, files }] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'dist/cli.js',
        'dist/cli-program.js',
        'dist/cli-program.js.map',
        // The chunks it imports when needed: vega for --html (below), the runner's HTTP client.
        expect.stringMatching(/^dist\/cli-chunk-\w+\.js$/),
        'dist/licenses.txt',
        'policies/default.yml',
        'README.md',
      ]),
    );
    expect(paths.filter((path) => /^(src|__tests__|node_modules)\//.test(path))).toEqual([]);

    const project = tempDir();
    writeFileSync(join(project, 'package.json'), '{"name": "a-team-project", "private": true}\n');
    const offline = { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
    const install = await runProcess('npm', ['install', join(packed, filename)], offline, project);
    expect([install.code, install.stderr]).toEqual([0, '']);
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/evalgate/package.json'), 'utf8')) as Record<string, unknown>;
    expect(installed.dependencies).toBeUndefined(); // nothing to fetch at install

    const npx = (args: string[]) => runProcess('npx', ['--offline', 'evalgate', ...args], offline, project);
    const at = (path: string) => join('node_modules/evalgate', path);
    const demo = await npx(['demo']);
    expect([demo.code, demo.stderr]).toEqual([0, '']);
    expect(demo.stdout).toMatch(/customer-support/);
    const validate = await npx(['validate', at('policies/default.yml')]);
    expect([validate.code, validate.stdout]).toEqual([0, expect.stringMatching(/^ok: .*default.yml \(\d+ checks/)]);
    const gate = await npx([
      'gate',
      '--policy',
      at('policies/customer-support.yml'),
      '--candidate',
      at('examples/billing/candidate-a.jsonl'),
      '--baseline',
      at('examples/billing/baseline.jsonl'),
      '--html',
      'report.html',
    ]);
    expect([gate.code, gate.stdout.split('\n')[0], gate.stderr]).toEqual([
      1,
      'evalgate: FAIL (2 blocking checks failed, 2 inconclusive) · policy customer-support',
      '',
    ]);
    // The charts come from vega, in a chunk of its own that the package must carry.
    expect(readFileSync(join(project, 'report.html'), 'utf8')).toMatch(/<svg/);
  }, 120_000);

  it("installs globally from a clone's git URL (npm install -g git+file://...), offline into an empty prefix, with no build step", async () => {
    // What `npm install -g github:OWNER/evalgate#v1` does, without the network: npm clones the
    // repository and packs it (dist/ is committed; no prepare script builds anything).
    const clone = join(tempDir(), 'evalgate');
    const cloned = await runProcess('git', ['clone', '--quiet', '--depth', '1', `file://${process.cwd()}`, clone]);
    expect([cloned.code, cloned.stderr]).toEqual([0, '']);
    const scripts = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(Object.keys(scripts).filter((name) => /^(pre|post)?(prepare|install|pack)$/.test(name))).toEqual([]);

    const prefix = tempDir();
    const offline = { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
    const install = await runProcess('npm', ['install', '--global', '--prefix', prefix, `git+file://${clone}`], offline);
    expect([install.code, install.stderr]).toEqual([0, '']);
    const evalgate = join(prefix, 'bin/evalgate');
    const version = await runProcess(evalgate, ['--version'], offline, tempDir());
    const own = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect([version.code, version.stdout.trim()]).toEqual([0, own.version]);
    // A real command, from another folder, on the files the package carries.
    const installed = (path: string) => join(prefix, 'lib/node_modules/evalgate', path);
    const gate = await runProcess(
      evalgate,
      [
        'gate',
        '--policy',
        installed('policies/realtime-chat.yml'),
        '--candidate',
        installed('examples/billing/candidate-b.jsonl'),
        '--baseline',
        installed('examples/billing/baseline.jsonl'),
      ],
      offline,
      tempDir(),
    );
    expect([gate.code, gate.stderr]).toEqual([1, '']);
    expect(gate.stdout).toMatch(/^evalgate: FAIL .* policy realtime-chat/);
  }, 180_000);
});
