"""Strategies that play ttr-lab games, one file each; see ``registry`` for names."""
