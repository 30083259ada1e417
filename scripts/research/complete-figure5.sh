#!/bin/sh
# `fit --task` alone, then `filter` on the Figure-5 mixes: the model is completed from the
# corpus at filter time. Prints the share of kept characters per source (the selection suites' measure).
# usage: npx tsc -p tsconfig.json && sh scripts/research/complete-figure5.sh [METHOD...]
set -e
W=${TMPDIR:-/tmp}/tadpole-complete-f5
mkdir -p "$W"
METHODS=${*:-tadpole}
for s in bio cs; do
  [ -f "$W/$s/mix.jsonl" ] || node bin/tadpole.js eval --spec corpora/figure5-$s.json --methods random --work-dir "$W/$s" --max-sentences 1000 >/dev/null
  for m in $METHODS; do
    node bin/tadpole.js fit --task "$W/$s/task.jsonl" --method "$m" -o "$W/$s/$m.json" 2>/dev/null
    node bin/tadpole.js filter -m "$W/$s/$m.json" "$W/$s/mix.jsonl" -o "$W/$s/$m.kept.jsonl" --stats "$W/$s/$m.stats.json" -q
    node -e '
      const fs = require("fs");
      const [file, stats, spec, method] = process.argv.slice(1);
      const by = {}; let all = 0;
      for (const l of fs.readFileSync(file, "utf8").split("\n")) { if (!l) continue; const r = JSON.parse(l); by[r.source] = (by[r.source] ?? 0) + r.text.length; all += r.text.length; }
      const st = JSON.parse(fs.readFileSync(stats, "utf8"));
      const c = st.completion;
      console.log(`figure5-${spec} ${method}: ` + Object.entries(by).sort().map(([k, v]) => `${k} ${(100 * v / all).toFixed(1)}%`).join(", ") +
        ` | completion: ${c ? `${c.sentences} sentences (${c.sampler}), ${c.seconds.toFixed(1)} s, fingerprint ${c.fingerprint}` : "none"} | total ${st.seconds.total.toFixed(1)} s`);
    ' "$W/$s/$m.kept.jsonl" "$W/$s/$m.stats.json" "$s" "$m"
  done
done
