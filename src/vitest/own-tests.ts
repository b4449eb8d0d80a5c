import { relative, resolve } from 'node:path';
import type { TestProjectInlineConfiguration, ViteUserConfig } from 'vitest/config';
import { defaultExclude } from 'vitest/config';

/** The default name of the project that keeps a configuration's own tests beside the benchmark projects. */
export const OWN_TESTS = 'tests';

/**
 * The repository's own tests as a project of their own. Adding the benchmark projects sets `test.projects`, and a
 * configuration with projects collects no test of its root: without this, `src/sum.test.ts` was no longer found.
 * It inherits the root's include, exclude and setup (`extends: true`); the benchmark spec folder is left out, as it
 * is a project of its own. A configuration that declares projects already keeps them; `false` adds none.
 */
export function ownTestsProject(
  userConfig: ViteUserConfig,
  root: string,
  name: string | false | undefined,
  specsDir: string | undefined,
): TestProjectInlineConfiguration[] {
  if (name === false || userConfig.test?.projects !== undefined) return [];
  const specs = specsDir === undefined ? [] : [`${relative(root, resolve(root, specsDir)).split('\\').join('/')}/**`];
  return [
    {
      extends: true,
      test: { name: name ?? OWN_TESTS, exclude: [...(userConfig.test?.exclude ?? defaultExclude), ...specs] },
    },
  ];
}
