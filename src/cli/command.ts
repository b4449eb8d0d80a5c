import type { CAC } from 'cac';

/** Where a command writes: the process's streams in the binary, buffers in tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A subcommand registers itself on the parser; its action resolves to an exit code. */
export type RegisterCommand = (cli: CAC, io: CliIo) => void;
