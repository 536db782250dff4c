"""The vocabulary every stage shares.

Grids, stable seeds, crash-safe files, errors, configurations, the environment's rules and
protocol, and the actions, feedback and observations of a grid instance.

Nothing here imports another stage of the package.
"""
