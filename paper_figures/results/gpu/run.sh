#!/bin/bash
# Issue 26's GPU item: the `paper` preset (ResNet-50, 224 px, 512 per GPU, LARS, bf16 where native) for a few hundred
# steps on one GPU, in one process and under torchrun, and its throughput against the bare model. Every training is
# cut by a timeout; the summary reads whatever its history holds.
# Env: BSTEPS, BWARM (bench steps timed, warm-up), STEPS (max_steps), T_TRAIN (s per training), T_BENCH (s), BATCH (per process), PY (interpreter), EXTRA (overrides)
set -u
export PYTHONUNBUFFERED=1
STEPS=${STEPS:-300}; T_TRAIN=${T_TRAIN:-120}; T_BENCH=${T_BENCH:-75}; BATCH=${BATCH:-512}; BSTEPS=${BSTEPS:-10}; BWARM=${BWARM:-3}; PY=${PY:-python3}; EXTRA=${EXTRA:-}
OUT=${OUT:-/tmp/gpuout}; mkdir -p "$OUT"
$PY -m pip install -q --no-index --no-deps --no-cache-dir --upgrade --target /tmp/site .gpu/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD
{ date -u; nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv 2>&1; nproc; lscpu | grep -m1 'Model name'
  $PY -c "import torch, torchvision, trust_ssl.train as t; print('torch', torch.__version__, 'torchvision', torchvision.__version__, 'cuda', torch.cuda.is_available(), torch.version.cuda)"; } > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

if [ -n "${CELLS:-}" ]; then
  for c in $CELLS; do echo "== cell $c"; timeout 90 $PY .gpu/cell.py ${c%%:*} $(echo $c | cut -d: -f2) $(echo $c | cut -d: -f3) 2>&1 | tee -a "$OUT/cells.log"; done
fi

echo "== bench: throughput of the paper preset (bundled sample packed at 224 px) against its bare step"
timeout $T_BENCH $PY - "$OUT/bench.json" "$BATCH" "$BSTEPS" "$BWARM" <<'EOF' 2>&1 | tee "$OUT/bench.log"
import json, sys, time, torch
from trust_ssl.config import resolve_config
from trust_ssl.bench import throughput
from trust_ssl.core import machine_info, resolve_precision
out, rows = sys.argv[1], []
dev = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
for method in ('trust_ssl', 'simclr'):
    cfg = resolve_config('paper', method=method, batch_size=int(sys.argv[2]))
    t0 = time.perf_counter()
    try: t = throughput(cfg, steps=int(sys.argv[3]), warmup=int(sys.argv[4]))
    except Exception as e: print(json.dumps(dict(method=method, error=str(e)[:400]))); rows.append(dict(method=method, error=str(e)[:400])); continue
    row = dict(method=method, batch_size=cfg.batch_size, image_size=cfg.image_size, backbone=cfg.backbone,
               precision=resolve_precision(cfg.precision, dev), pipeline_views_per_s=t.pipeline, bare_views_per_s=t.bare,
               ratio=t.ratio, seconds=time.perf_counter() - t0,
               max_memory_gib=torch.cuda.max_memory_allocated() / 2**30 if dev.type == 'cuda' else None)
    print(json.dumps(row)); rows.append(row)
    json.dump(dict(machine=machine_info(dev), rows=rows), open(out, 'w'), indent=1)
EOF

if [ -n "${DIAG:-}" ]; then
  echo "== diag"
  D=${DBATCH:-512}; for a in "$D 4 auto '' sgd 0.2" "$D 4 fp32 '' sgd 0.2" "$D 4 auto .gpu/eurosat-train.pack sgd 0.2" "$D 4 auto '' lars 0" "$D 4 auto '' sgd 0"; do
    eval timeout 60 $PY .gpu/diag.py $a 2>&1 | tee -a "$OUT/diag.log"
  done
fi

for mode in ${MODES-single torchrun}; do
  echo "== train: $mode"
  rm -rf /tmp/run-$mode
  args="--preset paper method=trust_ssl data=.gpu/eurosat-train.pack batch_size=$BATCH max_steps=$STEPS log_every=10 out_dir=/tmp/run-$mode $EXTRA"
  if [ $mode = single ]; then cmd="$PY -m trust_ssl.train $args"
  else cmd="$PY -m torch.distributed.run --standalone --nproc_per_node 1 -m trust_ssl.train $args"; fi
  echo "$cmd"
  timeout $T_TRAIN $cmd > "$OUT/$mode.log" 2>&1; echo "exit $?" >> "$OUT/$mode.log"
  tail -5 "$OUT/$mode.log"
  cp /tmp/run-$mode/history.jsonl "$OUT/${mode}_history.jsonl" 2>/dev/null
done

echo "== summary"
$PY - "$OUT" <<'EOF'
import json, sys, statistics
from pathlib import Path
out, summary = Path(sys.argv[1]), {}
for mode in ('single', 'torchrun'):
    p = out / f'{mode}_history.jsonl'
    if not p.is_file(): summary[mode] = 'no history'; continue
    lines = [json.loads(l) for l in p.read_text().splitlines() if l.strip()]
    start = next((l for l in lines if l['kind'] == 'start'), {})
    epochs = [l for l in lines if l['kind'] == 'epoch']
    steps = [l for l in lines if l['kind'] == 'step']
    summary[mode] = dict(precision=start.get('precision'), processes=start.get('processes'), accelerator=start.get('accelerator'),
                         steps_per_epoch=start.get('steps_per_epoch'), last_step=steps[-1]['step'] if steps else 0,
                         epoch_views_per_s=[round(e['views_per_s'], 1) for e in epochs],
                         median_epoch_views_per_s_after_first=statistics.median([e['views_per_s'] for e in epochs[1:]]) if len(epochs) > 1 else None,
                         last_loss=steps[-1]['loss'] if steps else None)
print(json.dumps(summary, indent=1)); (out / 'summary.json').write_text(json.dumps(summary, indent=1))
EOF
