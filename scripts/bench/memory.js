// Peak RSS of `tadpole filter` at two corpus sizes (default 100 MB and 1 GB; BENCH_MEMORY_MB=20,200 for a quick run).
import { benchMemory } from './e2e.js';

const sizes = (process.env.BENCH_MEMORY_MB ?? '100,1000').split(',').map(Number);
await benchMemory({ sizes });
