import type { RegisterCommand } from '../command.js';
import { registerBaseline } from './baseline.js';
import { registerCompare } from './compare.js';
import { registerFit } from './fit.js';
import { registerGenerate } from './generate.js';
import { registerGrade } from './grade.js';
import { registerInit } from './init.js';
import { registerPlan } from './plan.js';
import { registerReport } from './report.js';
import { registerRun } from './run.js';
import { registerSccReplay } from './scc-replay.js';
import { registerShow } from './show.js';

export const commands: RegisterCommand[] = [
  registerInit,
  registerRun,
  registerPlan,
  registerBaseline,
  registerCompare,
  registerReport,
  registerShow,
  registerGenerate,
  registerGrade,
  registerFit,
  registerSccReplay,
];
