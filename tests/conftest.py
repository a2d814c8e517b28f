"""Shared fixtures: the experiments at the default parameters and seed, run once per session."""
from __future__ import annotations

import pytest

from sqrtdk.config import DEFAULT_SEED, Params
from sqrtdk.experiments import Experiments, run_all


@pytest.fixture(scope="session")
def params() -> Params:
    """The default parameters (frozen, so sharing them is safe)."""
    return Params()


@pytest.fixture(scope="session")
def experiments(params: Params) -> Experiments:
    """`run_all(Params(), DEFAULT_SEED)`, computed once (~3 s). Read it, never mutate it."""
    return run_all(params, DEFAULT_SEED)
