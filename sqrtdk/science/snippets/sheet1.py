# Experiment 1: how widely do dot products of random vectors scatter?
import numpy as np

SEED = 20170612
rng = np.random.default_rng(SEED)
small, large = 4, 64                       # the two dimensions experiment 1 compares
sd = {}
for d in (small, large):
    q = rng.standard_normal((10_000, d))   # 10 000 query vectors ...
    k = rng.standard_normal((10_000, d))   # ... and as many keys, iid N(0, 1) components
    sd[d] = (q * k).sum(axis=1).std()      # SD of the 10 000 dot products q·k
n = large // small
print(f"SD at d = {small}: {sd[small]:.2f}   SD at d = {large}: {sd[large]:.2f}")
print(f"ratio {sd[large] / sd[small]:.2f}   (sqrt({n}) = {np.sqrt(n):.2f}, not {n})")
