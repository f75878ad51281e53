/*
 * How a signal (Ctrl-C, a cancelled job, `timeout`) ends evalgate. By default Node has no handler, and
 * the process dies of the signal at once, even in the middle of a long computation (a handler would
 * wait for the event loop, which a computation of minutes does not give back). While a program
 * evalgate started runs in a process group of its own, where the signal does not reach, handlers end
 * evalgate through process.exit instead, so that the program's 'exit' listener kills its group
 * (JsonLinesProcess); evalgate is then waiting on the program, and the handlers run at once.
 */

/** The exit code of a process ended by each signal, as a shell reports it (128 + its number). */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Makes SIGINT and SIGTERM end evalgate through process.exit until the returned function is called.
 * Each caller adds handlers of its own: Node restores the default once the last one is removed.
 */
export function exitThroughHandlers(): () => void {
  const handlers = (Object.keys(EXIT_CODES) as Array<keyof typeof EXIT_CODES>).map((signal) => {
    const handler = () => process.exit(EXIT_CODES[signal]);
    process.on(signal, handler);
    return { signal, handler };
  });
  return () => handlers.forEach(({ signal, handler }) => process.removeListener(signal, handler));
}
