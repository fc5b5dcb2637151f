#!/usr/bin/env bash
# After trust_ssl's long curve: publish it, measure it, draw the learning curves, then one study unit, then the test suite.
cd /work/main && . .venv/bin/activate
while pgrep -f runs/pilot/stage3.py > /dev/null; do sleep 20; done
echo "pilot ended $(date)"
[ -f runs/pilot/stage3/long/trust_ssl-seed0/done ] || { echo "the long curve did not finish"; exit 1; }
python runs/pilot/publish_run.py runs/pilot/stage3/long/trust_ssl-seed0 paper_figures/results/pilot26/stage3/pretrain/long-trust_ssl-seed0 || exit 1
python runs/pilot/stage3_measure_long.py || exit 1
papermill nbs/17_learning_curve.ipynb runs/17_paper.ipynb -p runs paper_figures/results/pilot26/stage3/pretrain -p floors runs/pilot/floors -p out_dir paper_figures || exit 1
papermill nbs/17_learning_curve.ipynb runs/17_pilot.ipynb -p runs paper_figures/results/pilot26/stage3/pretrain -p floors runs/pilot/floors -p out_dir paper_figures/results/pilot26/stage3 || exit 1
echo "figures done $(date)"
python -m trust_ssl.reproduce --preset small --data ../shared/data/eurosat_rgb --methods simclr --seeds 0 --evals linear robustness ki:eurosat gate:eurosat ood --eval-data ../shared/data/eurosat_rgb ../shared/data/aid_96px --dataset eurosat aid --ood-root ../shared/data/weather_mwd --id-folder shine --max-images 1000 --no-figures --publish paper_figures/results/small > runs/study_simclr0.log 2>&1
echo "study unit rc $? $(date)"
( nbdev_test --n_workers 1 && pytest -rs tests ) > runs/suite.log 2>&1; echo "suite rc $? $(date)"
