import os from 'node:os';

/** The machine a measurement ran on, for the header of every result table. */
export function machineInfo(): string {
  const cpus = os.cpus();
  const [one, five] = os.loadavg();
  return [
    `node ${process.version} (${process.platform} ${process.arch})`,
    `CPU ${cpus[0]?.model ?? 'unknown'} × ${cpus.length} (os.cpus()); availableParallelism ${os.availableParallelism()}`,
    `memory ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; load average at start ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min)`,
  ].join('\n');
}
