/**
 * Preloaded into the cluster section's servers (`node --require bench/mem-probe.cjs`; node:cluster gives the
 * workers the primary's flags): on SIGUSR2 a process writes its memory figures to BENCH_MEM_DIR/<pid>.json — RSS
 * and its split from /proc (anonymous, file-backed), process.memoryUsage(), V8's heap spaces, the modules loaded.
 * With BENCH_MEM_GC=1 (node --expose-gc), a full GC first.
 */
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');

const dir = process.env.BENCH_MEM_DIR;

function status() {
  const out = {};
  try {
    for (const line of fs.readFileSync('/proc/self/status', 'utf8').split('\n')) {
      const m = /^(VmRSS|RssAnon|RssFile|RssShmem|VmHWM):\s+(\d+) kB/.exec(line);
      if (m) out[m[1]] = Number(m[2]) * 1024;
    }
  } catch {
    // Not Linux.
  }
  return out;
}

if (dir) {
  process.on('SIGUSR2', () => {
    if (process.env.BENCH_MEM_GC === '1' && typeof global.gc === 'function') global.gc();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]));
    const figures = {
      pid: process.pid,
      worker: Boolean(process.env.NODE_UNIQUE_ID),
      proc: status(),
      usage: process.memoryUsage(),
      heap: v8.getHeapStatistics(),
      spaces,
      cjsModules: Object.keys(require.cache).length,
    };
    fs.writeFileSync(path.join(dir, `${process.pid}.json.tmp`), JSON.stringify(figures));
    fs.renameSync(path.join(dir, `${process.pid}.json.tmp`), path.join(dir, `${process.pid}.json`));
  });
}
