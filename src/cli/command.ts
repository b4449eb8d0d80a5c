import type { CAC } from 'cac';
import type { Segment } from '../../reporters/projections/show-text.js';

/** Where a command writes: the process's streams in the binary, buffers in tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stdout is a terminal that takes highlighting (the binary: a TTY, and NO_COLOR unset). */
  tty?: boolean;
  /**
   * A line of segments to stdout, each segment's text made terminal-safe and its mark highlighted when `tty`
   * (runCli provides it: the only way a command writes an escape sequence, and never one from the data).
   */
  stdoutLine?: (segments: readonly Segment[]) => void;
}

/** A subcommand registers itself on the parser; its action resolves to an exit code. */
export type RegisterCommand = (cli: CAC, io: CliIo) => void;
