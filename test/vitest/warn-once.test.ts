import { describe, expect, it } from 'vitest';
import { warnOnce } from '../../src/vitest/warn-once.js';

/** Vite 8's warning as it prints it for one config file (src/vitest/warn-once.ts). */
const viteWarning = (file: string) =>
  "(!) Your Vite config uses features that are unsupported by `configLoader: 'native'`, which is planned to become the default in a future major version of Vite:\n" +
  `  - ESM syntax in a file loaded as CommonJS (${file}:1:1). Use a \`.mjs\` extension or set \`"type": "module"\` in the closest package.json\n` +
  'Set `VITE_CONFIG_NATIVE_IGNORE_WARNING=true` to suppress this warning.';

function fakeConsole() {
  const printed: string[] = [];
  const target = { warn: (...args: unknown[]) => printed.push(args.join(' ')) } as unknown as Console;
  return { target, printed };
}

describe('Vite config-loader warnings once per command', () => {
  it('drops the root file’s warning (printed before any plugin ran) and every repeat of another', () => {
    const { target, printed } = fakeConsole();
    warnOnce('/repo/vitest.config.js', '/repo', target);
    warnOnce('/repo/vitest.config.js', '/repo', target); // a second Vitest instance of the same command
    // one load per declared project, as Vitest 5 made them for `vitest run --project d2` (7 in all with the root's)
    for (let i = 0; i < 6; i++) target.warn(viteWarning('vitest.config.js'));
    for (let i = 0; i < 3; i++) target.warn(viteWarning('packages/bench/vitest.config.js'));
    target.warn('something else');
    target.warn('something else');
    expect(printed).toEqual([viteWarning('packages/bench/vitest.config.js'), 'something else', 'something else']);
  });

  it('without a config file keeps the first of each warning', () => {
    const { target, printed } = fakeConsole();
    warnOnce(undefined, '/repo', target);
    target.warn(viteWarning('vitest.config.js'));
    target.warn(viteWarning('vitest.config.js'));
    expect(printed).toEqual([viteWarning('vitest.config.js')]);
  });
});
