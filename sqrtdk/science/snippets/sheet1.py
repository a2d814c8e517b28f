# Sheet 1: how widely do dot products of random vectors scatter?
import numpy as np

SEED = 20170612
rng = np.random.default_rng(SEED)
sd = {}
for d in (4, 512):
    q = rng.standard_normal((10_000, d))   # 10 000 query vectors ...
    k = rng.standard_normal((10_000, d))   # ... and as many keys, iid N(0, 1) components
    sd[d] = (q * k).sum(axis=1).std()      # SD of the 10 000 dot products q·k
print(f"SD at d = 4: {sd[4]:.2f}   SD at d = 512: {sd[512]:.2f}")
print(f"ratio {sd[512] / sd[4]:.2f}   (sqrt(128) = {np.sqrt(128):.2f}, not 128)")
