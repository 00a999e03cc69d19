"""Optional adapters into the frameworks people already run; each imports its framework
only when used (install the matching extra).

- :mod:`gaia_fast.integrations.ray`: Ray Data (``pip install 'gaia-fast[ray]'``).
"""
