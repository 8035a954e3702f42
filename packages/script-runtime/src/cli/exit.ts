/** Exit codes of `playfield-scripts`: a command line that cannot run is 2, a failure after starting 1. */
export const USAGE_EXIT = 2;
export const FAILURE_EXIT = 1;

/** Says why the command line cannot run, on stderr, and exits 2. */
export function refuse(message: string): never {
  process.stderr.write(`playfield-scripts: ${message}\nRun playfield-scripts --help for the options.\n`);
  process.exit(USAGE_EXIT);
}
