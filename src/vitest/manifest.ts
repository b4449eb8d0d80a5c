import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { RunConfig } from '../config/resolve.js';
import { type DeclaredProject, deriveManifest, type GridRecord } from '../gates/index.js';
import type { Requirement } from '../schema/manifest.js';
import { subjectLabels } from '../subjects/label.js';
import { DEFAULT_LADDER_TASK } from '../tasks/ladder.js';
import { resolveTask, TASK_IDS } from '../tasks/registry.js';
import { isSpecFile } from './declare.js';
import { SPECS_DIR } from './files.js';

/**
 * The records a standard project's spec files produce (specs/<project>/): one fit per shipped sweep task of the
 * project (describeSweep's defaults: the task's first variant and profile, all its levels), and the counting-capacity
 * ladder of the default ladder task (testCountingCapacity). The adaptive design picks its own depths: no levels then.
 */
export function standardGrid(project: string, design: RunConfig['design']): GridRecord[] {
  const grid: GridRecord[] = [];
  for (const task of TASK_IDS.map(resolveTask).filter((t) => t.project === project)) {
    if (task.analysis === 'retention')
      grid.push({
        task: task.id,
        fit: 'retention',
        variant: task.variants[0],
        profile: task.profiles[0],
        ...(design.kind === 'adaptive' ? {} : { levels: [...task.levels.values] }),
      });
    else if (task.analysis === 'collapse')
      grid.push({ task: task.id, fit: 'collapse', levels: [...task.levels.values] });
  }
  const ladder = resolveTask(DEFAULT_LADDER_TASK);
  if (ladder.project === project) grid.push({ task: ladder.id, fit: 'scc' });
  return grid;
}

/** A folder's spec files by the benchmark projects' include pattern, relative to `root`, in name order. */
export function specFilesIn(dir: string, root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  return names
    .filter((name) => isSpecFile(name) && !name.split(sep).includes('node_modules'))
    .map((name) => relative(root, join(dir, name)).split(sep).join('/'))
    .sort();
}

/** Whether a folder is one of the standard grids shipped with the package. */
const isStandard = (dir: string): boolean => `${dir}${sep}`.startsWith(SPECS_DIR) || dir.startsWith(SPECS_DIR);

/**
 * The evidence manifest of a ceilingbench root: from its configuration and the benchmark projects the plugin
 * declared (every one, whatever `--project`, `-t` or a file filter selects): a standard project's grid records,
 * the user's folder's spec files. Undefined without the plugin's declaration (the reporter alone).
 */
export function manifestOf(config: RunConfig): Requirement[] | undefined {
  const dirs = config.benchmarkDirs;
  if (!config.benchmarkProjects || !dirs) return undefined;
  const labels = config.subjects.length > 1 ? subjectLabels(config.subjects) : [];
  const projects: DeclaredProject[] = config.benchmarkProjects.map((name) => {
    const at = name.lastIndexOf('@');
    const vitestName = at > 0 ? name.slice(0, at) : name;
    const label = at > 0 ? name.slice(at + 1) : undefined;
    const subject = label === undefined ? config.subjects[0] : (config.subjects[labels.indexOf(label)] ?? label);
    const dir = dirs[vitestName];
    if (dir === undefined) return { name, subject };
    return isStandard(dir)
      ? { name, subject, grid: standardGrid(vitestName, config.design) }
      : { name, subject, files: specFilesIn(dir, config.root) };
  });
  return deriveManifest(config.gates, projects, config.seed);
}
