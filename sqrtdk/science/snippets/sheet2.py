# Experiment 2: one row of scores A ... H, multiplied by a scale.
import numpy as np

s = np.array([-0.8, 0.1, -0.35, 0.3, -0.1, 0.2, 0.55, 0.9])   # H is the largest
for scale in (1, 16):
    p = np.exp(scale * s) / np.exp(scale * s).sum()              # softmax
    print(f"x{scale}: H's share {p[-1]:.4f}   its sensitivity p(1 - p) = {p[-1] * (1 - p[-1]):.5f}")
