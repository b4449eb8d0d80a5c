// The face of src/plan (re-exports only): `ceilingbench plan`, the calls, tokens and cost of a run before it is
// made. A layer above src/assays; only the CLI imports it.
export { buildPlan, type PlanOptions } from './build.js';
export { matchProject, matchProjectNames, type SelectedProject, selectProjects } from './projects.js';
export { formatPlanTable } from './table.js';
