#!/usr/bin/env bash
# Issue 26 pilot, stage 2: what learns most per CPU-second at the mini data size, at about 45 minutes of this 2-core
# Zen 5 each (epochs from the measured views/s: b256 310, b128 321, nopool 91), SimCLR standard recipe, EuroSAT train
# split, validation kNN every 2 epochs (the monitor). Usage: stage2.sh LR T [names...]  (frozen copy: /work/pilot_src3)
cd /work/pilot_src3
export PYTHONPATH=/work/pilot_src3
lr=$1; t=$2; shift 2
declare -A extra=( [b256-imagenet]="epochs=27" [b128-imagenet]="epochs=27 batch_size=128" [b256-nopool]="epochs=8 stem=nopool" )
for name in "$@"; do
  out=/work/main/runs/pilot/stage2/$name
  [ -f $out/done ] && continue
  /work/main/.venv/bin/python -m trust_ssl.train --preset mini method=simclr 'augment={"family_p": 0.0}' data=/work/shared/data/eurosat_rgb \
     base_lr=$lr "method_args={\"temperature\": $t}" monitor_every=2 ${extra[$name]} out_dir=$out > $out.log 2>&1 || { echo "failed $out"; exit 1; }
  touch $out/done
done
