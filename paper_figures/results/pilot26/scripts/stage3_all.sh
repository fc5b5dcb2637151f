#!/usr/bin/env bash
# Issue 26 pilot, stage 3, whole and resumable: every run skips itself once done and resumes from its last epoch's
# checkpoint. One CPU-heavy job at a time: start it with nothing else training. The frozen code of commit bcab362 is
# /work/pilot_src4 (on a fresh machine: mkdir -p /work/pilot_src4 && git -C /work/main archive bcab362 trust_ssl setup.py
# settings.ini | tar -x -C /work/pilot_src4); the floors are runs/pilot/floors (on a fresh machine: runs/pilot/floors.py).
set -e
S=/work/main/runs/pilot/stage3; R=/work/main/runs/pilot/stage3.sh
if [ -f /work/main/paper_figures/results/pilot26/stage3/pretrain/long-simclr-seed0/history.jsonl ]; then
  echo "simclr long: published, not trained again"    # on a fresh machine its checkpoint is gone, and nothing needs it
else
  bash $R $S/long 50 imagenet simclr >> /work/main/runs/pilot/stage3_long.log 2>&1; echo "simclr long done ($(date -u +%H:%M))"
fi
bash $R $S/e24 24 imagenet simclr    >> /work/main/runs/pilot/stage3_e24.log 2>&1; echo "e24 done ($(date -u +%H:%M))"
bash $R $S/e30 30 imagenet simclr    >> /work/main/runs/pilot/stage3_e30.log 2>&1; echo "e30 done ($(date -u +%H:%M))"
if grep -qs placeholder $S/long/trust_ssl-seed0/done; then rm -r $S/long/trust_ssl-seed0; fi
bash $R $S/long 50 imagenet trust_ssl >> /work/main/runs/pilot/stage3_long.log 2>&1; echo "trust_ssl long done ($(date -u +%H:%M))"
