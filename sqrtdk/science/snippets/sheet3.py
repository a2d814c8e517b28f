# Experiment 3: one query against 8 keys at d = 64, under three rulers.
import numpy as np

SEED = 20170612
rng = np.random.default_rng(SEED)
d = 64                                     # the dimension of experiment 3's table
q = rng.standard_normal((1_000, 1, d))     # 1 000 rows: one query ...
k = rng.standard_normal((1_000, 8, d))     # ... against 8 keys each
raw = (q * k).sum(axis=2)                  # 1 000 rows of 8 scores q·k
print(f"d = {d}, {raw.shape[0]} rows of {raw.shape[1]} scores")
for name, divisor in (("1", 1), ("sqrt(d)", np.sqrt(d)), ("d", d)):
    s = raw / divisor
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)      # softmax of each row
    bits = -(p * np.log2(p + 1e-300)).sum(axis=1)
    print(f"divide by {name:>7}: winner's share {p.max(axis=1).mean():.3f}, "
          f"entropy {bits.mean():.3f} bits")
