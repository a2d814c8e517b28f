# The gradient experiment, what reaches q: one query against 8 keys, a random linear read-out of the output.
import numpy as np

SEED = 20170612
rng = np.random.default_rng(SEED)
for d in (4, 1024):
    q = rng.standard_normal((500, d))               # 500 rows: one query each ...
    K = rng.standard_normal((500, 8, d))            # ... against 8 keys
    u = rng.standard_normal((500, 8))               # dL/dp_j: value_j · w, variance 1
    for name, tau in (("1", 1.0), ("sqrt(d)", np.sqrt(d)), ("d", float(d))):
        s = np.einsum("rjd,rd->rj", K, q) / tau
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)           # softmax of each row
        # the Jacobian times u, p_i (u_i - p.u), written so that a share of 1.0 keeps precision
        Ju = p * ((u[:, :, None] - u[:, None, :]) * p[:, None, :]).sum(axis=2)
        g = np.einsum("rjd,rj->rd", K, Ju) / tau    # dL/dq = K^T J u / tau
        print(f"d = {d:4}, divide by {name:>7}: median |dL/dq| = "
              f"{np.median(np.linalg.norm(g, axis=1)):.3g}")
