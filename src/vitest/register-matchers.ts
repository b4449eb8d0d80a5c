// Imported for its effect: the matchers on Vitest's `expect` (ceilingbench/vitest imports it first).
import { installMatchers } from './matchers.js';

installMatchers();
