"""Drop-in faces of the systems gaia-fast users come from.

- :mod:`gaia_fast.compat.agent_framework`: Microsoft agent-framework's lab ``gaia`` module
  (``GAIA``, ``GAIATelemetryConfig``, the task types, ``gaia_scorer``, ``viewer_main``).
- :class:`gaia_fast.compat.gaia_benchmark.GAIABenchmark` (also ``gaia_fast.GAIABenchmark``):
  the ``GAIABenchmark`` object (task lookup, graded ``evaluate``).

Zypher's bench is served by ``gaia-fast grade`` with no PATH (its ``BENCHMARK_*``
environment variables), and the TypeScript agents' ``normalizeAnswer`` is
``gaia_fast.normalize_answer``.
"""
