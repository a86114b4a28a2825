// Bytes allocated on a process's main thread, from V8's sampling heap profiler with the objects
// already collected kept in the profile (by default it reports only what is still alive). CPU per
// call swings by ±40 % between identical runs on a shared machine; what a call allocates does not
// (two runs agree within 1 %), and allocation is what the V8 threads beside the proxy's spend their
// CPU collecting. Workers (the database's thread) are isolates of their own and are not counted.
import inspector from 'node:inspector';

const INTERVAL_BYTES = 4096;

function post(session, method, params) {
  return new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

export async function startAllocationSampling() {
  const session = new inspector.Session();
  session.connect();
  await post(session, 'HeapProfiler.enable');
  await post(session, 'HeapProfiler.startSampling', {
    samplingInterval: INTERVAL_BYTES,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    /** Stops; returns the bytes allocated since the start and the frames that allocated most (self). */
    async stop(topCount = Number(process.env.BENCH_ALLOC_TOP ?? 15)) {
      const { profile } = await post(session, 'HeapProfiler.stopSampling');
      session.disconnect();
      const bySelf = new Map();
      let total = 0;
      const visit = (node) => {
        total += node.selfSize;
        const { functionName, url, lineNumber } = node.callFrame;
        const where = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}`;
        bySelf.set(where, (bySelf.get(where) ?? 0) + node.selfSize);
        for (const child of node.children) visit(child);
      };
      visit(profile.head);
      const top = [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, topCount);
      return { totalBytes: total, top };
    },
  };
}

/** A child without IPC: 'alloc-start' and 'alloc-stop' lines on `input`; the stop's result goes to `answer`. */
export function answerAllocationCommands(input, answer) {
  let sampling;
  input.setEncoding('utf8');
  input.on('data', async (text) => {
    for (const command of text.split('\n')) {
      if (command === 'alloc-start') sampling = await startAllocationSampling();
      if (command === 'alloc-start') answer({ started: true });
      if (command === 'alloc-stop' && sampling) answer(await sampling.stop());
    }
  });
}
