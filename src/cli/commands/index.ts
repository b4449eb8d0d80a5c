import type { CAC } from 'cac';
import type { CliIo } from '../program';
import { registerBaseline } from './baseline';
import { registerCompare } from './compare';
import { registerFit } from './fit';
import { registerGenerate } from './generate';
import { registerGrade } from './grade';
import { registerReport } from './report';
import { registerRun } from './run';
import { registerSccReplay } from './scc-replay';

/** A subcommand registers itself on the parser; its action resolves to an exit code. */
export type RegisterCommand = (cli: CAC, io: CliIo) => void;

export const commands: RegisterCommand[] = [
  registerRun,
  registerBaseline,
  registerCompare,
  registerReport,
  registerGenerate,
  registerGrade,
  registerFit,
  registerSccReplay,
];
