"""Softmax, its Jacobian and entropy: the functions every experiment shares."""
from __future__ import annotations

import numpy as np


def softmax(scores: np.ndarray) -> np.ndarray:
    """Softmax along the last axis, shape preserved; shifted by the row maximum for stability.

    p_i = exp(s_i) / sum_j exp(s_j) (paper section 3.2.1; source note 000).
    """
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


def softmax_jacobian(p: np.ndarray) -> np.ndarray:
    """Jacobian dp_i/ds_j = p_i (delta_ij - p_j) of softmax at shares p, shape (..., n, n).

    Diagonal p_i (1 - p_i), off-diagonal -p_i p_j; every row sums to 0 (source notes 000 and 002).
    """
    eye = np.eye(p.shape[-1])
    out: np.ndarray = p[..., :, None] * eye - p[..., :, None] * p[..., None, :]
    return out


def softmax_vjp(p: np.ndarray, upstream: np.ndarray) -> np.ndarray:
    """J(p) @ u along the last axis without forming J, shape of `p` (..., n): the gradient of
    L = u·p with respect to the scores (J is symmetric; source notes 000 and 002).

    Written g_i = p_i sum_j p_j (u_i - u_j), which equals p_i (u_i - p·u) because the shares
    sum to 1, but keeps its precision when one share rounds to 1: the textbook form then
    subtracts two numbers that agree to the last bit, leaving float64 rounding of about
    1e-16 in place of the winner's true entry (orders of magnitude smaller in a saturated
    row). Every term here is a product of shares and differences of u, so each entry is
    accurate to a few ulps of itself.
    """
    spread = upstream[..., :, None] - upstream[..., None, :]            # u_i - u_j
    out: np.ndarray = p * (spread * p[..., None, :]).sum(axis=-1)
    return out


def entropy_bits(p: np.ndarray) -> np.ndarray:
    """Shannon entropy in bits along the last axis; 0 for one-hot, log2(n) for uniform."""
    safe = np.where(p > 0, p, 1.0)
    out: np.ndarray = -(p * np.log2(safe)).sum(axis=-1)
    return out
