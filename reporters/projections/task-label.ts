/**
 * A task as the reports name it. A task is named alone (`d2`) while one project holds it; where two projects hold
 * the same task (the standard `d2` and a user's spec folder sweeping d2 too, project `benchmarks`) its records
 * would read as one, so every record of that task names its project: `d2 · d2`, `benchmarks · d2`. The projects of
 * one task per subject (`d2@a`, `d2@b`) are one project here: the subject column tells them apart.
 */
interface Named {
  project: string;
  task: string;
}

const baseProject = (project: string): string => project.replace(/@[^@]*$/, '');

/** The labeller of a report's records: the task, with its project where another project holds the same task. */
export function taskLabeller(records: readonly Named[]): (record: Named) => string {
  const projects = new Map<string, Set<string>>();
  for (const r of records) {
    const set = projects.get(r.task) ?? new Set<string>();
    set.add(baseProject(r.project));
    projects.set(r.task, set);
  }
  return (record) =>
    (projects.get(record.task)?.size ?? 0) > 1 ? `${baseProject(record.project)} · ${record.task}` : record.task;
}

/** The labeller over every record of a report that names a task (cells, fits, collapse fits). */
export function taskLabel(report: {
  cells: readonly Named[];
  fits: readonly Named[];
  collapse: readonly Named[];
}): (record: Named) => string {
  return taskLabeller([...report.cells, ...report.fits, ...report.collapse]);
}
