import { describe, expect, it } from '@jest/globals';
import { progressReporter } from '../src/runner/progress.js';

/* Progress: a bar on a terminal, a line at every 10% with the rate and the time left in CI. */

function run(interactive: boolean, total: number): string[] {
  const written: string[] = [];
  let clock = 0;
  const report = progressReporter(
    (text) => written.push(text),
    interactive,
    () => clock,
  );
  for (let done = 1; done <= total; done++) {
    clock += 100; // one answer every 100 ms: 10 per second
    report(done, total);
  }
  return written;
}

describe('progress', () => {
  it('logs a line at every 10% in CI, with the rate and the time left', () => {
    const lines = run(false, 50);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('evalgate: 5/50 (10%), 10.0 per second, about 5 s left\n');
    expect(lines[9]).toBe('evalgate: 50/50 (100%), 10.0 per second, about 0 s left\n');
  });

  it('logs the end even when there are fewer than ten items', () => {
    expect(run(false, 3)).toEqual([
      'evalgate: 1/3 (33%), 10.0 per second, about 0 s left\n',
      'evalgate: 2/3 (67%), 10.0 per second, about 0 s left\n',
      'evalgate: 3/3 (100%), 10.0 per second, about 0 s left\n',
    ]);
  });

  it('redraws a bar in place on a terminal and ends the line when done', () => {
    const frames = run(true, 4);
    expect(frames).toHaveLength(4);
    expect(frames[1]).toBe(`\r[${'#'.repeat(15)}${'.'.repeat(15)}] 2/4 10.0/s ETA 0s`);
    expect(frames[3]).toBe(`\r[${'#'.repeat(30)}] 4/4 10.0/s ETA 0s\n`);
  });
});
