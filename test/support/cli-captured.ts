import { runCli } from '../../src/cli/program.js';

/** The program run in process on `argv`: its exit code and what it wrote to stdout and stderr. */
export async function cliCaptured(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join(''), err: err.join('') };
}
