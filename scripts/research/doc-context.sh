#!/bin/sh
# The "Document context" tables of docs/research.md: ways to
# score a segment from its sentences (segment-cut.js; METHOD@CUT) x every suite mix, mean,
# minimum, leave-one-domain-out, in one in-memory run (under a minute once the mixes are
# cached). FITSEED=1 or 2 repeats it with other fit seeds.
# usage: npx tsc -p tsconfig.json && sh scripts/research/doc-context.sh
W='{"features":"words","rounds":1}'
D='dsir:{"features":"chars-folded"}'
exec node scripts/research/suite.js random tadpole@mean \
  tadpole@doc:5 tadpole@doc:15 tadpole@docmean tadpole@blend:0.5 \
  tadpole@len tadpole@len:200 \
  tadpole@lendoc:1 tadpole@lendoc:5 tadpole@lendoc:15 tadpole@lendoc:50 \
  tadpole@lendoc:15:1 tadpole@lendoc:15:5 tadpole@lendoc:15:15 \
  classifier classifier@mean 'classifier:{"rounds":0}' "$D" dsir "z:classifier:$W|dsir" \
  "z:classifier|classifier|$D" "z:classifier:{\"rounds\":3}|$D" "r:classifier|$D"
