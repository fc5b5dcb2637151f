# Run notebooks as nbdev_test does, the `gpu` flag forced on (the `slow` flag still skipped), and print what their
# `#| gpu` cells printed, which nbdev_test keeps to itself on success. argv: notebooks.
import sys, time
from pathlib import Path
import execnb.shell as sh
from nbdev.test import test_nb
shown, orig = [], sh.CaptureShell.run_all
def run_all(self, nb, *a, **k):
    try: return orig(self, nb, *a, **k)
    finally:
        for c in nb.cells:
            if c.cell_type == 'code' and 'gpu' in (getattr(c, 'directives_', None) or {}):
                text = ''.join(o.get('text', '') if isinstance(o.get('text', ''), str) else ''.join(o['text']) for o in c.get('outputs', []))
                shown.append(f'cell {c.get("id", "?")}: ' + (text.strip() or '(no output)'))
sh.CaptureShell.run_all = run_all
ok = True
for fn in sys.argv[1:]:
    shown.clear(); t = time.time()
    res, secs = test_nb(Path(fn).resolve(), skip_flags=['slow'], force_flags=['gpu'])
    print(f'{fn}: {"passed" if res else "FAILED"} in {secs:.0f} s', flush=True)
    for s in shown: print('   ', s, flush=True)
    ok &= res
sys.exit(0 if ok else 1)
