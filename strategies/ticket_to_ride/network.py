"""The policy and value network Ticket to Ride's ``learned`` strategy and searches read: the
game-independent ``ttr_lab.strategies.network``, imported here by the names they use."""

from ttr_lab.strategies.network import FORMAT, PARAMS, Network, digest, masked_softmax, unreadable

__all__ = ["FORMAT", "PARAMS", "Network", "digest", "masked_softmax", "unreadable"]
