import type { CAC } from 'cac';
import type { CliIo } from '../program.js';
import { registerBaseline } from './baseline.js';
import { registerCompare } from './compare.js';
import { registerFit } from './fit.js';
import { registerGenerate } from './generate.js';
import { registerGrade } from './grade.js';
import { registerInit } from './init.js';
import { registerReport } from './report.js';
import { registerRun } from './run.js';
import { registerSccReplay } from './scc-replay.js';

/** A subcommand registers itself on the parser; its action resolves to an exit code. */
export type RegisterCommand = (cli: CAC, io: CliIo) => void;

export const commands: RegisterCommand[] = [
  registerInit,
  registerRun,
  registerBaseline,
  registerCompare,
  registerReport,
  registerGenerate,
  registerGrade,
  registerFit,
  registerSccReplay,
];
