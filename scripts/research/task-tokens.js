// Task tokens where artefacts sit (src/select/artefacts.ts): per suite task, the
// tokens at least RATIO (default 30) times more frequent at a place (anywhere, first, last) in
// the task's sentences than in the corpus sample's, in at least 5% of the task, most frequent
// first, as "token task%/corpus%". The default strips those at 100 times and 50% (anywhere) or
// 25% (first, last): this shows how near a suite task's real tokens come.
//
// usage: node scripts/research/task-tokens.js [SPEC...]   (SUITE_DIR as suite.js; the mix cached
//   by suite.js). env TASKFORM gives the task in that form, as suite.js does (suite-cache.js).
import { countPlaces } from '../../dist/select/artefacts.js';
import { cachedMix, specNames, taskInForm } from './suite-cache.js';

const RATIO = Number(process.env.RATIO ?? 30);

for (const { name, file } of specNames(process.argv.slice(2))) {
  const { c } = await cachedMix(file);
  if (!c) {
    console.log(`${name}: no cached mix (run suite.js on it first)`);
    continue;
  }
  const task = taskInForm(c.task);
  const T = countPlaces(task);
  const G = countPlaces(c.general);
  const cols = ['any', 'first', 'last'].map((place) => {
    const rows = [];
    for (const [k, n] of T[place]) {
      const t = n / task.length;
      const g = (G[place].get(k) ?? 0) / c.general.length;
      if (t >= 0.05 && g * RATIO <= t) rows.push([k, t, g]);
    }
    rows.sort((a, b) => b[1] - a[1]);
    return `${place}: ${rows.slice(0, 4).map(([k, t, g]) => `${k} ${(100 * t).toFixed(0)}/${(100 * g).toFixed(2)}`).join(', ')}`;
  });
  console.log(`${name.padEnd(24)} ${cols.join(' | ')}`);
}
