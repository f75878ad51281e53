/**
 * For entry points: a signal (Ctrl-C, a cancelled job) ends evalgate through process.exit, so that the
 * programs it started, in process groups of their own where the signal does not reach, are stopped
 * too (each JsonLinesProcess kills its group on exit).
 */
export function exitOnSignals(): void {
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
}
