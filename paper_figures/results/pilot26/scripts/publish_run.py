# Issue 26 pilot: publish one finished pilot run's config.json and history.jsonl (never its checkpoints), the machine's
# absolute paths made relative to the clone (/work/main/ -> '', /work/shared -> ../shared). Usage: publish_run.py RUN DEST
import sys
from pathlib import Path
from trust_ssl.core import atomic_write
run, dest = Path(sys.argv[1]), Path(sys.argv[2])
if not (run / 'done').exists(): sys.exit(f'{run}: not finished (no done marker); nothing published')
if dest.exists(): sys.exit(f'{dest} exists: not overwritten')
for f in ('config.json', 'history.jsonl'):
    atomic_write(dest / f, (run / f).read_text().replace('/work/main/', '').replace('/work/shared', '../shared'))
print(f'published {run} -> {dest}')
