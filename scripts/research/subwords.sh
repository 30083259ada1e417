#!/bin/sh
# The subword-feature table of docs/research.md ("Subword
# features"), every method x every suite mix, mean, minimum, leave-one-domain-out, in one
# in-memory run (about 4 minutes on 2 cores). FITSEED=1 or 2 repeats it with other fit seeds.
# usage: npx tsc -p tsconfig.json && sh scripts/research/subwords.sh
W='{"features":"words","rounds":1}'
D='dsir:{"features":"chars-folded"}'
# Measured with the paper's plain segment mean (before --doc-context): CUT=mean.
CUT="${CUT:-mean}" exec node scripts/research/suite.js random \
  "z:classifier:$W|dsir" \
  tadpole \
  "classifier:$W" 'classifier:{"features":"words"}' \
  'classifier:{"features":"chars","rounds":1}' 'classifier:{"features":"chars-folded","rounds":1}' \
  'classifier:{"features":"chars-folded","rounds":1,"charN":3}' 'classifier:{"features":"chars-folded","rounds":1,"charN":4}' \
  'classifier:{"rounds":3}' classifier \
  dsir 'dsir:{"features":"chars","charN":4}' 'dsir:{"features":"chars-folded","charN":4}' "$D" \
  "r:classifier:$W|dsir" "r:classifier|$D" \
  'z:classifier:{"features":"chars-folded","rounds":1}|dsir' \
  'z:classifier|dsir:{"features":"chars-folded","charN":4}' \
  "z:classifier|classifier|$D" "z:classifier:{\"rounds\":3}|$D" \
  'z:classifier:{"epochs":3}|'"$D" 'z:classifier:{"epochs":10}|'"$D" 'z:classifier:{"l2":0.0001}|'"$D"
