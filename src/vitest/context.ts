import { type CeilingbenchConfig, loadConfig } from '../config';
import { createSubject } from '../subjects';
import type { Subject } from '../subjects/subject';

export interface RunContext {
  config: CeilingbenchConfig;
  subject: Subject;
}

let context: Promise<RunContext> | undefined;

/** Config and subject, created once per worker from ceilingbench.config.ts and CEILINGBENCH_* variables. */
export function runContext(): Promise<RunContext> {
  context ??= (async () => {
    const config = await loadConfig();
    const subject = await createSubject(config.subject, { seed: config.seed });
    return { config, subject };
  })();
  return context;
}

/** Instance seeds of a run: seed 0 reproduces the released CCB instances; seed s shifts every seed by s·10^6. */
export const seedOffsetFor = (runSeed: number): number => runSeed * 1_000_000;
