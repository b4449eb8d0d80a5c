import { defineConfig } from 'ceilingbench';
import pipeline from './subject.js';

// Picked by CEILINGBENCH_CONFIG in one e2e case: the pipeline itself in `subjects`, not a module path.
export default defineConfig({ subjects: [pipeline] });
