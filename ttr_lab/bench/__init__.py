"""Benchmarks: engine speed, strategy strength, tournament throughput (``ttr-lab bench``)."""
