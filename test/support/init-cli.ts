import { runCli } from '../../src/cli/program.js';

/** `ceilingbench init --root <root> …flags` in process: its exit code and everything it printed. */
export async function init(root: string, ...flags: string[]) {
  const out: string[] = [];
  const code = await runCli(['init', '--root', root, ...flags], {
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
  });
  return { code, out: out.join('') };
}
