"""Softmax, its Jacobian and entropy: the functions every experiment shares."""
from __future__ import annotations

import numpy as np


def softmax(scores: np.ndarray) -> np.ndarray:
    """Softmax along the last axis, shape preserved; shifted by the row maximum for stability.

    p_i = exp(s_i) / sum_j exp(s_j) (paper section 3.2.1, seed 000 paper 2).
    """
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


def softmax_jacobian(p: np.ndarray) -> np.ndarray:
    """Jacobian dp_i/ds_j = p_i (delta_ij - p_j) of softmax at shares p, shape (..., n, n).

    Diagonal p_i (1 - p_i), off-diagonal -p_i p_j; every row sums to 0 (seed 000, seed 002).
    """
    eye = np.eye(p.shape[-1])
    out: np.ndarray = p[..., :, None] * eye - p[..., :, None] * p[..., None, :]
    return out


def softmax_vjp(p: np.ndarray, upstream: np.ndarray) -> np.ndarray:
    """J(p) @ upstream along the last axis without forming J: p ⊙ (u − p·u).

    J is symmetric, so this is also the gradient of L = u·p with respect to the scores.
    """
    out: np.ndarray = p * (upstream - (p * upstream).sum(axis=-1, keepdims=True))
    return out


def entropy_bits(p: np.ndarray) -> np.ndarray:
    """Shannon entropy in bits along the last axis; 0 for one-hot, log2(n) for uniform."""
    safe = np.where(p > 0, p, 1.0)
    out: np.ndarray = -(p * np.log2(safe)).sum(axis=-1)
    return out
