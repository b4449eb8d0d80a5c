import type { CAC } from 'cac';
import type { CliIo } from '../program';

/** A subcommand registers itself on the parser; its action resolves to an exit code. */
export type RegisterCommand = (cli: CAC, io: CliIo) => void;

export const commands: RegisterCommand[] = [];
