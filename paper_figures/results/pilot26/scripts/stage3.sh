#!/usr/bin/env bash
# stage3.sh ROOT EPOCHS STEM NAME...: the frozen code, one run after the other, log beside the root.
cd /work/pilot_src4 && PYTHONPATH=/work/pilot_src4 exec /work/main/.venv/bin/python /work/main/runs/pilot/stage3.py "$@"
