/**
 * CPU accounting of a sample (Linux /proc; elsewhere zeros): the server's own CPU time (with `tree`, that of the
 * server and of its descendants: the workers of WEB_CONCURRENCY), and how busy the machine was with other work, in
 * cores: the CPU time of every process minus the server's and this process's (the load generator), plus the time
 * stolen by the hypervisor. Kernel interrupt time is left out: loopback traffic is mostly handled there.
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

/** The pids of a process and of its descendants (Linux /proc; a process that is gone has none). */
export function processTree(pid) {
  let children = [];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const text = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) children.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    children = [];
  }
  return [pid, ...children.flatMap(processTree)];
}

/** utime+stime ticks of each process of a tree, by pid. */
function treeTicks(pid) {
  return new Map(processTree(pid).map((p) => [p, processTicks(p)]));
}

/**
 * Starts a measure; the returned function gives `{ serverCpu (s), noise (cores), machineCpu (s), seconds }` since
 * then. `tree`: the server's CPU is that of its whole process tree (the processes alive at the end; those started
 * during the sample count from zero).
 */
export function startMeter(serverPid, { tree = false } = {}) {
  const ticks = () => (tree ? treeTicks(serverPid) : new Map([[serverPid, processTicks(serverPid)]]));
  const machine = machineTicks();
  const server = ticks();
  const self = processTicks(process.pid);
  const t0 = performance.now();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    let serverTicks = 0;
    for (const [pid, now] of ticks()) serverTicks += now - (server.get(pid) ?? 0);
    const end = machineTicks();
    if (!machine || !end) return { serverCpu: 0, noise: 0, machineCpu: 0, seconds };
    const all = end[0] - machine[0];
    const foreign = all - serverTicks - (processTicks(process.pid) - self) + (end[1] - machine[1]);
    return { serverCpu: serverTicks / TICKS, noise: Math.max(0, foreign / TICKS / seconds), machineCpu: all / TICKS, seconds };
  };
}
