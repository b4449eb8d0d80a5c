import { afterAll, vi } from 'vitest';

/**
 * The unit project runs many files in one worker (`isolate: false` in vitest.config.ts), so the modules a file
 * imports are the next file's too. A file that changes what those modules hold (registers a task family, mocks a
 * module) calls this at its top level: after its tests the worker drops every module it loaded, and the next file
 * imports them afresh. A file that mocks a module also unmocks it in its own afterAll (`vi.doUnmock` resolves the
 * path from the file that calls it).
 */
export function reloadModulesAfterThisFile(): void {
  afterAll(() => {
    vi.resetModules();
  });
}
