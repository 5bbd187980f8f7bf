"""A small multilayer perceptron in numpy: inputs → one sigmoid hidden layer → sigmoid outputs.

Outputs are probabilities for the side on roll. Short nardy: ``win, win_gammon, win_backgammon, lose_gammon,
lose_backgammon`` (gammon outputs include backgammons); the same for Acey-deucey and Dutch. Long nardy, Fevga and
Gul bara: ``win, win_mars, lose_mars`` (Fevga's gammon as марс). Plakoto: ``win, win_gammon, lose_gammon``.
"""

from __future__ import annotations

import io
import json
import threading
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from nardy.ai.features import F64, LONG_FAMILY, RESERVE_FAMILY, SHORT_FAMILY, U8, encode, input_size

_SHORT_OUTPUTS: Final = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
# the variants of the short-nardy board share short nardy's outputs (Hypergammon's gammons and Portes' backgammons are
# never scored by default, so their networks learn those outputs as 0 and their equity ignores them)
OUTPUTS: Final[dict[str, tuple[str, ...]]] = {
    **dict.fromkeys(SHORT_FAMILY, _SHORT_OUTPUTS),
    # Acey-deucey and Dutch score single, gammon and backgammon as short nardy does
    **dict.fromkeys(RESERVE_FAMILY, _SHORT_OUTPUTS),
    # Fevga and Gul bara are played on the long-nardy board with its encoding; a gammon (Fevga) or марс is the
    # second output
    **dict.fromkeys(LONG_FAMILY, ("win", "win_mars", "lose_mars")),
    # Plakoto: a gammon is a bear-off against a side with none off, or a loss by the mother rule
    "plakoto": ("win", "win_gammon", "lose_gammon"),
}
# equity of each output (cubeless money value, before the constant -1): e = 2 * win - 1 + gammon terms
_EQUITY_WEIGHTS: Final[dict[str, F64]] = {
    "short": np.array([2.0, 1.0, 1.0, -1.0, -1.0]),
    "nackgammon": np.array([2.0, 1.0, 1.0, -1.0, -1.0]),
    "portes": np.array([2.0, 1.0, 0.0, -1.0, 0.0]),
    "hypergammon": np.array([2.0, 0.0, 0.0, 0.0, 0.0]),
    "misere": np.array([2.0, 0.0, 0.0, 0.0, 0.0]),
    **dict.fromkeys(RESERVE_FAMILY, np.array([2.0, 1.0, 1.0, -1.0, -1.0])),
    **dict.fromkeys(LONG_FAMILY, np.array([2.0, 1.0, -1.0])),
    "plakoto": np.array([2.0, 1.0, -1.0]),
}
# the other side's view: index of the output each output becomes, and whether it is complemented (1 - p)
_FLIP_INDEX: Final[dict[str, npt.NDArray[np.intp]]] = {
    **dict.fromkeys((*SHORT_FAMILY, *RESERVE_FAMILY), np.array([0, 3, 4, 1, 2])),
    **dict.fromkeys(LONG_FAMILY, np.array([0, 2, 1])),
    "plakoto": np.array([0, 2, 1]),
}


def output_names(variant: str) -> tuple[str, ...]:
    """Return the names of the network outputs of ``variant``.

    Raises:
        KeyError: an unknown variant name.
    """
    return OUTPUTS[variant]


def equity(variant: str, probs: F64) -> F64:
    """Return the cubeless equity (in points per cube unit) of ``probs`` (n, outputs) for the side they belong to."""
    return np.asarray(probs @ _EQUITY_WEIGHTS[variant] - 1.0)


def flip(variant: str, probs: F64) -> F64:
    """Return the probabilities of ``probs`` (n, outputs) seen by the other side."""
    out = np.asarray(probs[:, _FLIP_INDEX[variant]], dtype=np.float64).copy()
    out[:, 0] = 1.0 - out[:, 0]
    return out


def flip_matrix(variant: str) -> F64:
    """Return ``M`` with ``flip(p) = c + M @ p`` (the linear part of :func:`flip`), for gradients."""
    k = len(OUTPUTS[variant])
    matrix = np.zeros((k, k))
    for i, j in enumerate(_FLIP_INDEX[variant]):
        matrix[i, j] = 1.0
    matrix[0, 0] = -1.0
    return matrix


def _sigmoid(x: F64) -> F64:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0))))


@dataclass
class Network:
    """Weights of one variant's network and what is known about their training (``info``)."""

    variant: str
    w1: F64
    b1: F64
    w2: F64
    b2: F64
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def random(cls, variant: str, hidden: int, seed: int) -> Network:
        """Return a freshly initialised network (small random weights, seeded).

        Raises:
            ValueError: an unknown variant name.
        """
        rng = np.random.default_rng(seed)
        n_in = input_size(variant)
        n_out = len(OUTPUTS[variant])
        return cls(
            variant,
            rng.uniform(-0.1, 0.1, (n_in, hidden)),
            np.zeros(hidden),
            rng.uniform(-0.1, 0.1, (hidden, n_out)),
            np.zeros(n_out),
        )

    @property
    def hidden(self) -> int:
        """Return the number of hidden units."""
        return int(self.w1.shape[1])

    def forward(self, inputs: F64) -> tuple[F64, F64]:
        """Return ``(outputs, hidden activations)`` for a batch of encoded inputs (n, inputs)."""
        hidden = _sigmoid(inputs @ self.w1 + self.b1)
        return _sigmoid(hidden @ self.w2 + self.b2), hidden

    def probabilities(self, batch: U8) -> F64:
        """Return the output probabilities (n, outputs) of a ``(n, 50)`` position batch, for the side on roll."""
        return self.forward(encode(self.variant, batch))[0]

    def equities(self, batch: U8) -> F64:
        """Return the cubeless equity (n,) of each position of the batch for the side on roll."""
        return equity(self.variant, self.probabilities(batch))

    def save(self, path: str) -> None:
        """Write the weights (float64, so that a resumed training run continues exactly) and ``info`` to an ``.npz``
        file at ``path``.

        Raises:
            OSError: the file cannot be written.
        """
        np.savez_compressed(
            path,
            w1=self.w1,
            b1=self.b1,
            w2=self.w2,
            b2=self.b2,
            meta=np.array(json.dumps({"variant": self.variant, "info": self.info})),
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> Network:
        """Return the network stored in ``.npz`` bytes written by :meth:`save`.

        Raises:
            ValueError, KeyError: the data is not such a file.
        """
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            meta = json.loads(str(npz["meta"]))
            return cls(
                str(meta["variant"]),
                npz["w1"].astype(np.float64),
                npz["b1"].astype(np.float64),
                npz["w2"].astype(np.float64),
                npz["b2"].astype(np.float64),
                dict(meta.get("info", {})),
            )

    @classmethod
    def load(cls, path: str) -> Network:
        """Return the network saved at ``path``.

        Raises:
            OSError: the file cannot be read.
            ValueError, KeyError: the file is not a saved network.
        """
        with open(path, "rb") as handle:
            return cls.from_bytes(handle.read())


_SHIPPED: dict[str, Network] = {}
_LOCK = threading.Lock()


def shipped_network(variant: str) -> Network:
    """Return the network shipped with the package for ``variant`` (loaded once, shared, thread-safe).

    Raises:
        FileNotFoundError: no weights are shipped for ``variant``.
    """
    with _LOCK:
        net = _SHIPPED.get(variant)
        if net is None:
            resource = resources.files("nardy.ai").joinpath("weights", f"{variant}.npz")
            if not resource.is_file():
                raise FileNotFoundError(f"no shipped network weights for variant {variant!r}")
            net = Network.from_bytes(resource.read_bytes())
            _SHIPPED[variant] = net
        return net
