/**
 * A run's progress as text. On a terminal, a bar redrawn in place; elsewhere (CI logs) a line at every
 * 10% with the rate and the time left. `write` gets text as it should appear (bar updates start with
 * "\r"; log lines end with "\n").
 */
export function progressReporter(
  write: (text: string) => void,
  interactive: boolean,
  now: () => number = Date.now,
): (done: number, total: number) => void {
  const started = now();
  let lastTenth = 0;
  return (done, total) => {
    const rate = done / Math.max((now() - started) / 1000, 1e-3);
    const eta = Math.round((total - done) / Math.max(rate, 1e-9));
    if (interactive) {
      const width = 30;
      const filled = Math.round((done / total) * width);
      write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${rate.toFixed(1)}/s ETA ${eta}s${done === total ? '\n' : ''}`,
      );
      return;
    }
    const tenth = Math.floor((done / total) * 10);
    if (tenth > lastTenth || done === total) {
      lastTenth = tenth;
      write(`evalgate: ${done}/${total} (${Math.round((100 * done) / total)}%), ${rate.toFixed(1)} per second, about ${eta} s left\n`);
    }
  };
}
