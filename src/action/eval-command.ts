import { spawn } from 'node:child_process';
import { childEnvironment } from '../process/child-env.js';
import { UsageError } from '../errors.js';
import type { ActionPort } from './context.js';

/** Runs the team's own evaluation command with the runner's shell, its output in the log; fails closed. */
export async function runEvalCommand(port: ActionPort, command: string): Promise<void> {
  port.info(`evalgate: running ${command}`);
  const code = await new Promise<number | null>((resolve, reject) => {
    // The team's command gets what a `run:` step gets, not the runner's tokens given to this action.
    const child = spawn(command, {
      shell: process.platform === 'win32' ? true : '/bin/bash',
      stdio: ['ignore', 'inherit', 'inherit'],
      env: childEnvironment(),
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new UsageError(`eval-command failed (exit code ${code}): ${command}`);
}
