// `ceilingbench/setup`, for `setupFiles` without the plugin: registers the matchers and stamps each module with
// its shard. It exports nothing.
import { beforeAll, inject } from 'vitest';
import { installMatchers } from './matchers.js';
import { MODULE_STAMP_KEY, type ModuleStamp } from './meta.js';

installMatchers();

// Every benchmark module says which shard ran it, so that a merge of blobs knows which shards it holds.
// Vitest passes the fixtures first (an object pattern is required) and the module's suite second.
// biome-ignore lint/correctness/noEmptyPattern: Vitest requires the fixtures' object pattern here
beforeAll(({}, module) => {
  const shard = inject('ceilingbench')?.shard;
  const stamp: ModuleStamp = { shard: shard ?? null };
  module.meta[MODULE_STAMP_KEY] = stamp;
});
