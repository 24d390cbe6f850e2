/**
 * CPU accounting of a sample (Linux /proc; elsewhere zeros): the server's own CPU time, and how busy the machine
 * was with other work, in cores: the CPU time of every process minus the server's and this process's (the load
 * generator), plus the time stolen by the hypervisor. Kernel interrupt time is left out: loopback traffic is
 * mostly handled there.
 */
import fs from 'node:fs';

const TICKS = 100; // USER_HZ

function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** [user+nice+system, steal] ticks of the whole machine. */
function machineTicks() {
  const line = read('/proc/stat')?.split('\n', 1)[0];
  if (!line) return null;
  const [user, nice, system, , , , , steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return [user + nice + system, steal || 0];
}

/** utime+stime ticks of a process. */
function processTicks(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return 0;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Starts a measure; the returned function gives `{ serverCpu (s), noise (cores) }` since then. */
export function startMeter(serverPid) {
  const machine = machineTicks();
  const server = processTicks(serverPid);
  const self = processTicks(process.pid);
  const t0 = performance.now();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    const serverTicks = processTicks(serverPid) - server;
    const end = machineTicks();
    if (!machine || !end) return { serverCpu: 0, noise: 0 };
    const foreign = end[0] - machine[0] - serverTicks - (processTicks(process.pid) - self) + (end[1] - machine[1]);
    return { serverCpu: serverTicks / TICKS, noise: Math.max(0, foreign / TICKS / seconds) };
  };
}
