#!/usr/bin/env bash
# Issue 26 pilot on a fresh machine: the floors, SimCLR's full schedules at 24 and 30 epochs, the rule's measurement
# (validation only), then trust_ssl's 50-epoch curve. One CPU-heavy job at a time; every step resumable or skipped once done.
set -e
S=/work/main/runs/pilot/stage3; R=/work/main/runs/pilot/stage3.sh
[ -d /work/main/runs/pilot/floors/random_init-seed0 ] || (cd /work/pilot_src4 && PYTHONPATH=/work/pilot_src4 /work/main/.venv/bin/python /work/main/runs/pilot/floors.py); echo "floors ($(date -u +%H:%M))"
bash $R $S/e24 24 imagenet simclr    >> /work/main/runs/pilot/stage3_e24.log 2>&1; echo "e24 done ($(date -u +%H:%M))"
bash $R $S/e30 30 imagenet simclr    >> /work/main/runs/pilot/stage3_e30.log 2>&1; echo "e30 done ($(date -u +%H:%M))"
[ -f /work/main/paper_figures/results/pilot26/stage3/validation_linear.csv ] || (cd /work/main && .venv/bin/python runs/pilot/stage3_measure.py > runs/pilot/stage3_measure.log 2>&1); echo "measured ($(date -u +%H:%M))"
bash $R $S/long 50 imagenet trust_ssl >> /work/main/runs/pilot/stage3_long.log 2>&1; echo "trust_ssl long done ($(date -u +%H:%M))"
